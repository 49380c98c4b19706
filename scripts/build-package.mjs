#!/usr/bin/env node
// Builds the package in the working directory: one ES module per entry point, bundled by esbuild
// from the TypeScript sources, and the .d.ts files from tsc. Usage, as a package's build script:
//   node ../../scripts/build-package.mjs [extra-entry.ts ...]
//
// Why bundle: Node's ES module loader pays per module it resolves, reads and links, and a
// package of fifty small files cost more to import than the code in them. Each entry and each
// lazily imported part (a dynamic `import()` inside the package) becomes one module; code two
// of them share goes into a chunk of its own.
//
// The entries are the package.json `exports` and `imports` targets (each pairs a `./src/x.ts`
// source condition with its `./dist/x.js`), plus any source file named on the command line (a
// file a bin script or tool loads by path). Every import that is not relative stays an import:
// dependencies and sibling packages load as installed, and `#imports` keep their conditions.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { build } from "esbuild";

const SOURCE_CONDITION = "@mcp-tool-adapter/source";
const packageDir = process.cwd();
const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));

function fail(message) {
  console.error(`build-package: ${manifest.name}: ${message}`);
  process.exit(1);
}

/** Each `{ "<source condition>": "./src/x.ts", default: "./dist/x.js" }` pair under a map's targets. */
function sourceDistPairs(target, pairs = []) {
  if (target === null || typeof target !== "object") return pairs;
  const source = target[SOURCE_CONDITION];
  if (typeof source === "string" && typeof target.default === "string") pairs.push([source, target.default]);
  for (const [key, nested] of Object.entries(target)) {
    if (key !== SOURCE_CONDITION && key !== "default") sourceDistPairs(nested, pairs);
  }
  return pairs;
}

/** The dist path tsc and esbuild both give a source file: src/a/b.ts becomes dist/a/b.js. */
const distPathOf = (source) => source.replace(/^(\.\/)?src\//, "./dist/").replace(/\.ts$/, ".js");

const entries = new Map();
for (const [source, dist] of sourceDistPairs({ exports: manifest.exports, imports: manifest.imports })) {
  if (distPathOf(source) !== dist) fail(`${dist} is not where ${source} is built to (${distPathOf(source)})`);
  entries.set(source, dist);
}
for (const extra of process.argv.slice(2)) entries.set(`./${relative(".", extra)}`, distPathOf(extra));
if (entries.size === 0) fail("package.json names no source entry (an exports target with the source condition)");
for (const source of entries.keys()) if (!existsSync(join(packageDir, source))) fail(`${source} does not exist`);

rmSync(join(packageDir, "dist"), { recursive: true, force: true });

// Declarations first: a type error stops the build before anything is bundled.
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const declarations = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json", "--emitDeclarationOnly"], {
  cwd: packageDir,
  stdio: "inherit",
});
if (declarations.status !== 0) fail("tsc failed");

await build({
  absWorkingDir: packageDir,
  entryPoints: [...entries.keys()],
  outbase: "src",
  outdir: "dist",
  entryNames: "[dir]/[name]",
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  // Neutral: the packages that run in browsers and edge runtimes get no Node shims; Node's own
  // modules are bare imports like any dependency and stay external below.
  platform: "neutral",
  target: "node20",
  tsconfig: "tsconfig.build.json",
  // No JavaScript source maps: the bundles are not minified and stay readable, and
  // scripts/check-consumers.mjs keeps maps out of the tarballs.
  logLevel: "warning",
  plugins: [
    {
      name: "dependencies-stay-imports",
      setup(builder) {
        builder.onResolve({ filter: /^[^./]/ }, (args) => ({ path: args.path, external: true }));
      },
    },
  ],
});
