#!/usr/bin/env node
// Type-checks every ```ts block of the docs and READMEs, so examples cannot rot.
// Each block becomes its own module inside the umbrella package (which depends on every
// public package, so any `@mcp-tool-adapter/*` import resolves) and tsc checks them all.
// A block fenced as ```ts no-check is skipped (use it for deliberate fragments).
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { join, relative } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const outDir = join(root, "packages/mcp-tool-adapter/.doc-examples");

function markdownFiles() {
  const files = [join(root, "README.md")];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".md")) files.push(path);
    }
  };
  walk(join(root, "docs"));
  for (const pkg of readdirSync(join(root, "packages"))) {
    const readme = join(root, "packages", pkg, "README.md");
    if (existsSync(readme)) files.push(readme);
  }
  return files;
}

const fence = /^```(ts|typescript)([^\n]*)\n([\s\S]*?)^```/gm;
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

let count = 0;
for (const file of markdownFiles()) {
  const text = readFileSync(file, "utf8");
  for (const match of text.matchAll(fence)) {
    if (match[2].includes("no-check")) continue;
    const line = text.slice(0, match.index).split("\n").length;
    const name = `${relative(root, file).replace(/[^a-zA-Z0-9]+/g, "_")}_L${line}.ts`;
    writeFileSync(join(outDir, name), `// From ${relative(root, file)}:${line}\n${match[3]}\nexport {};\n`);
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
