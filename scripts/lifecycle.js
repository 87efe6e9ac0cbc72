#!/usr/bin/env node
/**
 * The package's build and npm lifecycle scripts, in one place (plain JavaScript: it runs before
 * anything is compiled). `node scripts/lifecycle.js <step>`:
 *
 * - build:    dist/ from scratch (tsc, emitting without type checking: `npm run typecheck` checks,
 *             and `npm test` runs it; checking in the build too cost every `npm ci` and every git
 *             install 19 CPU-s where emitting alone costs 12), its declarations rewritten without zod
 *             (declarations.js), then the bins made executable: npm sets the mode of a bin
 *             when it links it, once, so a rebuild that recreated the file without it left
 *             `npx pulumi-boundary` answering "Permission denied".
 * - stale:    the build, only when dist/ is not the build of the sources as they are (what `npm test`
 *             runs: `npm ci` has just built, and a second tsc run from scratch took 30-70 s).
 * - prepare:  what `npm ci`/`npm install` run in a checkout: the build. Not when `npx pulumi-boundary`
 *             runs in a checkout (npm installs the checkout into its npx cache as a link and runs
 *             its prepare): starting the CLI never builds; unbuilt, each missing bin becomes a
 *             stand-in that says to run `npm ci` and exits 1 (the build replaces it).
 *             When npm prepares this package as a git dependency, the build, then package.json
 *             without the lifecycle scripts and the dev dependencies (as prepack), so the installed
 *             package carries neither.
 * - prepack:  `npm pack`/`npm publish`: builds if dist/ is stale (as `stale` does), then takes the
 *             lifecycle scripts out of package.json for the tarball (npm lists a dependency's
 *             prepare or install scripts as unreviewed on every install), and the dev dependencies:
 *             Pulumi installs a plugin by `npm install` in the package's own folder, which installs
 *             them too (TypeScript, ESLint, jest, a whole Node binary), and nothing installed needs them;
 * - postpack: puts package.json back.
 */
"use strict";
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const root = path.join(__dirname, "..");
const at = (...p) => path.join(root, ...p);
const MANIFEST = at("package.json");
const SAVED = at(".package.json.before-pack");
const STAMP = at("dist", ".built");
/** Scripts npm runs by itself on install or pack: the installed package carries none of them. */
const LIFECYCLE = ["preinstall", "install", "postinstall", "prepare", "prepack", "postpack"];

function manifest() {
  return JSON.parse(fs.readFileSync(MANIFEST, "utf8"));
}

function bins() {
  const { bin } = manifest();
  return typeof bin === "string" ? [bin] : Object.values(bin ?? {});
}

function build() {
  fs.rmSync(at("dist"), { recursive: true, force: true });
  execFileSync(process.execPath, [require.resolve("typescript/bin/tsc", { paths: [root] }), "-p", at("tsconfig.build.json"), "--noCheck"], {
    cwd: root,
    stdio: "inherit",
  });
  // the published declarations name no zod type: see declarations.js
  require("./declarations").withoutZod(at("dist"), require(require.resolve("typescript", { paths: [root] })));
  for (const bin of bins()) fs.chmodSync(at(bin), 0o755);
  fs.writeFileSync(STAMP, `${JSON.stringify({ at: new Date().toISOString(), inputs: buildInputs().files })}\n`);
}

/**
 * What the build reads: the sources tsc compiles (the folders tsconfig.build.json includes), the
 * tsconfigs and this folder's scripts; their paths and the newest modification time. Not package.json:
 * postpack puts it back as a new file after every pack, and tsc does not read it.
 */
function buildInputs() {
  const { include = [] } = JSON.parse(fs.readFileSync(at("tsconfig.build.json"), "utf8"));
  const files = ["tsconfig.build.json", "tsconfig.json", "scripts/lifecycle.js", "scripts/declarations.js"];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name.endsWith(".ts")) files.push(path.relative(root, p));
    }
  };
  for (const dir of include) if (fs.existsSync(at(dir))) walk(at(dir));
  files.sort();
  return { files, newest: Math.max(...files.filter((f) => fs.existsSync(at(f))).map((f) => fs.statSync(at(f)).mtimeMs)) };
}

/**
 * True when dist/ is the last build of the sources as they are now: its stamp is newer than every
 * input and was written for the same files (a source deleted or added since means a build from
 * scratch, so dist/ holds no output of a file that is gone), and every bin is there.
 */
function fresh() {
  if (!fs.existsSync(STAMP) || !bins().every((b) => fs.existsSync(at(b)))) return false;
  let stamp;
  try {
    stamp = JSON.parse(fs.readFileSync(STAMP, "utf8"));
  } catch {
    return false; // a stamp of an older build script (a bare date): build
  }
  const inputs = buildInputs();
  return JSON.stringify(stamp.inputs) === JSON.stringify(inputs.files) && fs.statSync(STAMP).mtimeMs >= inputs.newest;
}

/** package.json without the lifecycle scripts and the dev dependencies (the original kept in SAVED when `keep`). */
function stripLifecycle(keep) {
  const text = fs.readFileSync(MANIFEST, "utf8");
  if (keep) fs.writeFileSync(SAVED, text);
  const pkg = JSON.parse(text);
  for (const name of LIFECYCLE) delete pkg.scripts?.[name];
  delete pkg.devDependencies;
  // whole or not at all: tests read package.json while jest's global setup packs in the background
  fs.writeFileSync(`${MANIFEST}.tmp`, JSON.stringify(pkg, null, 2) + "\n");
  fs.renameSync(`${MANIFEST}.tmp`, MANIFEST);
}

const steps = {
  build,
  stale() {
    if (fresh()) process.stdout.write("dist/ is the build of the sources as they are: not built again\n");
    else build();
  },
  prepare() {
    // an installed package has no sources to build (and no prepare left, see prepack)
    if (!fs.existsSync(at("tsconfig.build.json"))) return;
    if (process.env.npm_command === "exec") {
      // npm hides what this script prints and, if it fails, leaves its npx cache entry without a
      // package.json, which fails every later npx (ENOENT) until deleted: so it succeeds, and the bin
      // it links says what to do (the build replaces it).
      const message = `pulumi-boundary is not built in ${root}: run \`npm ci\` there first, then this command again.\n`;
      for (const bin of bins().filter((b) => !fs.existsSync(at(b)))) {
        fs.rmSync(STAMP, { force: true }); // dist/ is no build now: prepack must build again
        fs.mkdirSync(path.dirname(at(bin)), { recursive: true });
        fs.writeFileSync(at(bin), `#!/usr/bin/env node\nprocess.stderr.write(${JSON.stringify(message)});\nprocess.exit(1);\n`, { mode: 0o755 });
      }
      return;
    }
    build();
    // pacote (npm's fetcher) sets this while it prepares a git dependency: what it packs next is
    // what gets installed, and it reads package.json again before packing
    if (process.env._PACOTE_NO_PREPARE_ !== undefined) stripLifecycle(false);
  },
  prepack() {
    if (fs.existsSync(SAVED)) fs.renameSync(SAVED, MANIFEST); // a pack that failed halfway
    if (!fresh()) build();
    stripLifecycle(true);
  },
  postpack() {
    if (fs.existsSync(SAVED)) fs.renameSync(SAVED, MANIFEST);
  },
};

const step = steps[process.argv[2]];
if (!step) {
  process.stderr.write(`usage: node scripts/lifecycle.js ${Object.keys(steps).join("|")}\n`);
  process.exit(2);
}
step();
