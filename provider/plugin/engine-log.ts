/**
 * Warnings a user must see, sent to the engine's `pulumirpc.Engine/Log` service with the resource's
 * URN: a plugin's stdout and stderr reach only the engine's debug log. The address comes from
 * Handshake (`engine_address`) or, before that, from the plugin's command line. Without an engine,
 * or when the engine does not answer, the warning goes to stderr instead of being lost.
 */
import type { EngineClient } from "@pulumi/pulumi/proto/engine_grpc_pb";
import type { Sdk } from "./sdk";

/** An engine address on a command line: `127.0.0.1:56789` (the last argument that looks like one). */
export function engineAddressFrom(argv: readonly string[]): string | undefined {
  return [...argv].reverse().find((a) => /^[\w.\-[\]:]+:\d+$/.test(a));
}

/** The channel for warnings: the engine's Log service when connected, else stderr. */
export class EngineLog {
  private client: EngineClient | undefined;
  private address: string | undefined;

  /** Not connected yet: warnings go to `fallback` (stderr by default) until `connect` names an engine. */
  constructor(
    private readonly s: Sdk,
    private readonly fallback: (line: string) => void = (l) => process.stderr.write(l),
  ) {}

  /** Talks to the engine at `address` from now on (a new address replaces the old client). */
  connect(address: string | undefined): void {
    if (!address || address === this.address) return;
    this.client?.close();
    this.address = address;
    this.client = new this.s.engineServices.EngineClient(address, this.s.grpc.credentials.createInsecure());
  }

  /** Sends a warning about `urn`; resolves once the engine has it (or it went to stderr). Never rejects. */
  warn(message: string, urn: string): Promise<void> {
    const client = this.client;
    if (!client) {
      this.fallback(`warning: ${message}\n`);
      return Promise.resolve();
    }
    const req = new this.s.engine.LogRequest();
    req.setSeverity(this.s.engine.LogSeverity.WARNING);
    req.setMessage(message);
    req.setUrn(urn);
    return new Promise((resolve) =>
      client.log(req, new this.s.grpc.Metadata(), { deadline: Date.now() + 5000 }, (err) => {
        if (err) this.fallback(`warning: ${message}\n`);
        resolve();
      }),
    );
  }

  /** Closes the connection to the engine. */
  close(): void {
    this.client?.close();
    this.client = undefined;
  }
}
