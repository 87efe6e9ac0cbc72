#!/usr/bin/env node
/**
 * `npm run generate`: writes every file rendered from the field table, the release table and the
 * plugin's package schema (the list is scripts/generate/index.ts's), each laid out by Prettier where
 * Prettier formats it, and says which changed. test/wire/generated.test.ts fails while one is stale.
 *
 * It runs the TypeScript sources themselves (each module transpiled as Node loads it, no type check:
 * `npm run typecheck` does that), so it needs no build and never reads a stale dist/.
 */
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const ts = require("typescript");

require.extensions[".ts"] = (module, filename) => {
  const { outputText } = ts.transpileModule(fs.readFileSync(filename, "utf8"), {
    fileName: filename,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, sourceMap: false },
  });
  module._compile(outputText, filename);
};

const { ROOT, generatedFiles, isCurrent } = require("./generate/index.ts");
const prettier = require("prettier");

/** `text` as Prettier lays out `file`, or as it is where .prettierignore leaves the file alone. */
async function formatted(file, text) {
  const at = path.join(ROOT, file);
  const { ignored } = await prettier.getFileInfo(at, { ignorePath: path.join(ROOT, ".prettierignore") });
  return ignored ? text : prettier.format(text, { ...(await prettier.resolveConfig(at)), filepath: at });
}

async function main() {
  let changed = 0;
  for (const generated of generatedFiles()) {
    const at = path.join(ROOT, generated.file);
    const before = fs.existsSync(at) ? fs.readFileSync(at, "utf8") : undefined;
    const text = await formatted(generated.file, generated.text);
    if (!isCurrent(generated, text)) {
      // what Prettier changes the test would call stale forever: the generator must write it formatted
      process.stderr.write(`generate: Prettier changes ${generated.file} as rendered; render it formatted (scripts/generate/)\n`);
      process.exitCode = 1;
      return;
    }
    if (before === text) continue;
    fs.writeFileSync(at, text);
    process.stdout.write(`wrote ${generated.file}\n`);
    changed++;
  }
  process.stdout.write(changed ? `${changed} file(s) regenerated: review and commit them\n` : "every generated file is current\n");
}

main().catch((e) => {
  process.stderr.write(`generate: ${e instanceof Error ? e.message : e}\n`);
  process.exitCode = 1;
});
