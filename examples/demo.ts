/**
 * `npm run demo`: starts the local controller on free ports and runs examples/basic against it,
 * the three jobs the package is for: `pulumi up`, drift detection (another operator changes a
 * Target through the API; `pulumi preview --refresh --expect-no-changes` reports the field, its
 * old and new value, and exits non-zero; `pulumi up --refresh` puts it back), and `pulumi destroy`.
 * With a Pulumi CLI on PATH: the real CLI on a local file backend (no login). Without one: the same
 * program in offline mode (the SDK's mock runtime wired to the real provider).
 * First, onboarding (`onboarding.ts`): Targets made outside Pulumi, through the API and by Terraform,
 * discovered with `pulumi-boundary import` and adopted; the next preview shows no changes.
 * `npm run demo -- --emulate 0.21` runs it against a controller answering as Boundary v0.21 does
 * (current names and actions, paginated lists, the rate limiter); `--emulate 0.4` as v0.4 does.
 * An unknown flag is refused, naming the nearest; `--help` lists them. This file reads the flags and
 * loads nothing else: the run (demo-run.ts) loads the controller, the provider and Pulumi's SDK.
 */
import type { Emulation } from "../controller/emulation";
import { DEFAULT_KEY, RELEASE_KEYS } from "../wire/release-keys";
import { UsageError, parseFlags } from "../provider/estate/flags";

/** The releases `--emulate` takes: the table's keys (controller/emulation.ts's EMULATIONS, without loading the table). */
const EMULATIONS: readonly Emulation[] = RELEASE_KEYS;

const USAGE = `Usage: npm run demo [-- --emulate <mode>]

Starts a local controller on free ports and shows the package's jobs against it: onboarding (Targets
made through the API and by Terraform, discovered with \`pulumi-boundary import\` and adopted), then
examples/basic: pulumi up, drift detection, pulumi up --refresh, pulumi destroy. With a Pulumi CLI on
PATH, examples/basic runs through it; without one, through the offline engine.

  --emulate <mode>   answer as ${EMULATIONS.join(", ")} (default: ${DEFAULT_KEY})
  -h, --help         this help
`;

/** The demo's flags: `--emulate <mode>` (the spec's behaviour when absent), `--help`. Throws UsageError for anything else. */
function flagsFrom(argv: readonly string[]): { emulation: Emulation; help: boolean } {
  const flags = parseFlags(argv, { emulate: { type: "string" }, help: { type: "boolean", short: "h" } });
  const value = flags.emulate ?? DEFAULT_KEY;
  if (!(EMULATIONS as readonly string[]).includes(value)) throw new Error(`--emulate: ${JSON.stringify(value)} is not one of ${EMULATIONS.join(", ")}`);
  return { emulation: value as Emulation, help: !!flags.help };
}

async function main(): Promise<void> {
  let flags;
  try {
    flags = flagsFrom(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`demo: ${err.message}`);
    process.exitCode = 2;
    return;
  }
  if (flags.help) return void process.stdout.write(USAGE);
  // the controller, the provider and Pulumi's SDK load only now: --help and a refused flag answer at once
  await (await import("./demo-run")).runDemo(flags.emulation);
}

main().catch((err) => {
  console.error(`demo failed: ${err instanceof Error ? err.message : err}`);
  process.exitCode = 1;
});
