/**
 * The package's policy pack. The engine's Node language host runs `@pulumi/pulumi/cmd/run-policy-pack`
 * with this folder as its program (and its working directory): constructing the PolicyPack starts the
 * analyzer server and prints its port. The policies are the package's built ones, one folder up
 * (dist/policy), so the pack and `pulumi-boundary/policy` can never differ; `@pulumi/policy` is the
 * package's dependency, found in the node_modules above this folder.
 */
"use strict";
const { PolicyPack } = require("@pulumi/policy");
const { POLICY_PACK, targetPolicies } = require("../dist/policy");

new PolicyPack(POLICY_PACK.name, { description: POLICY_PACK.description, policies: [...targetPolicies] });
