/**
 * The package as Pulumi runs it as a plugin (PulumiPlugin.yaml): the Node language host starts
 * `run-plugin <pluginDir>`, which requires the directory, and so loads package.json's `main`,
 * this module. Importing the package by name (`require("pulumi-boundary")`) resolves its
 * `exports` instead, `provider/index.ts`, which has no side effect: only this entry decides whether
 * to serve, and only when run-plugin loaded it as the plugin itself (`runningAsPlugin`).
 *
 * It exports the whole package too, so a tool that resolves `main` rather than `exports` still
 * gets the package's API (and no server, not being run-plugin's program).
 */
export * from "../index";
import { runningAsPlugin } from "./main";

if (runningAsPlugin(module)) {
  // loaded only here: importing the package never loads the gRPC server
  void import("./server").then((server) => server.serve());
}
