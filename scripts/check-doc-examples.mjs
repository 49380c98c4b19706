#!/usr/bin/env node
// Type-checks every ```ts block of the docs and READMEs, so examples cannot rot.
// Each block becomes its own module inside the umbrella package (which depends on every
// public package, so any `@mcp-tool-adapter/*` import resolves) and tsc checks them all.
// A block fenced as ```ts no-check is skipped (use it for deliberate fragments).
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { codeBlocks, docFiles, repoRoot as root } from "./doc-files.mjs";

const outDir = join(root, "packages/mcp-tool-adapter/.doc-examples");

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

let count = 0;
for (const file of docFiles()) {
  for (const { language, info, code, line } of codeBlocks(file)) {
    if ((language !== "ts" && language !== "typescript") || info.includes("no-check")) continue;
    const name = `${relative(root, file).replace(/[^a-zA-Z0-9]+/g, "_")}_L${line}.ts`;
    writeFileSync(join(outDir, name), `// From ${relative(root, file)}:${line}\n${code}\nexport {};\n`);
    count += 1;
  }
}

writeFileSync(
  join(outDir, "tsconfig.json"),
  JSON.stringify({
    extends: "../../../tsconfig.base.json",
    compilerOptions: { noEmit: true, noUnusedLocals: false },
    include: ["*.ts"],
  }),
);

const tsc = spawnSync("pnpm", ["exec", "tsc", "-p", join(outDir, "tsconfig.json")], { cwd: root, stdio: "inherit" });
if (tsc.status === 0) console.log(`doc examples: ${count} TypeScript blocks type-check`);
process.exit(tsc.status ?? 1);
