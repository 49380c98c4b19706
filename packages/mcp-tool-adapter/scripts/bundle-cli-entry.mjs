#!/usr/bin/env node
// Runs after the package build (see package.json "build"): rewrites dist/cli/main.js, the bin's
// entry, into one file. The shared build splits the package into chunks, and main.js imported
// eight small ones before `call` spawns its server (argv scan, config source, env expansion, ...);
// Node's ES module loader pays per module (resolve, realpath, read, compile, link), about 5 ms of
// CPU for those eight on Node 24, all of it before the spawn. Here the entry's static imports of
// the package's own chunks are inlined; everything else stays as it was:
//
// - dynamic imports (the early server, run-cli, the JSONC parser) stay imports of the same chunks,
//   so what loads after the spawn, and every module-level value in it, exists once;
// - bare imports (node builtins, sibling packages, dependencies) stay imports.
//
// What is inlined is the fast path's own code (src/cli/fast-start.ts and what it imports):
// functions and constants only. It keeps no state, so a second copy of it in a chunk (run-cli
// uses the same argv scan) behaves the same.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const entry = join(packageDir, "dist", "cli", "main.js");
const entryDir = dirname(entry);

const result = await build({
  entryPoints: [entry],
  bundle: true,
  write: false,
  format: "esm",
  platform: "neutral",
  target: "node20",
  logLevel: "warning",
  // The package is "sideEffects": false, so esbuild warns about the chunks' bare imports it drops.
  logOverride: { "ignored-bare-import": "silent" },
  plugins: [
    {
      name: "inline-static-chunks-only",
      setup(builder) {
        builder.onResolve({ filter: /.*/ }, (args) => {
          if (args.kind === "entry-point") return undefined;
          // Bare specifiers: node builtins, sibling packages, dependencies.
          if (!args.path.startsWith(".")) return { path: args.path, external: true };
          // A dynamic import keeps its chunk, as seen from the entry's directory.
          if (args.kind === "dynamic-import") {
            const target = join(args.resolveDir, args.path);
            const fromEntry = relative(entryDir, target).replaceAll("\\", "/");
            return { path: fromEntry.startsWith(".") ? fromEntry : `./${fromEntry}`, external: true };
          }
          return undefined;
        });
      },
    },
  ],
});

const [output] = result.outputFiles;
if (output === undefined) throw new Error("bundle-cli-entry: esbuild wrote nothing");
const before = readFileSync(entry, "utf8");
const shebang = "#!/usr/bin/env node\n";
const text = output.text.startsWith("#!") ? output.text : shebang + output.text;
if (!before.startsWith("#!")) throw new Error("bundle-cli-entry: dist/cli/main.js lost its shebang");
writeFileSync(entry, text);
