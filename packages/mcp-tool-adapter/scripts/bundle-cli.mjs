#!/usr/bin/env node
// Runs after the package build (see package.json "build"): rewrites what the bin loads for
// `call` into a few self-contained files. The shared build splits the package into chunks (code
// two entries share goes into a chunk of its own), so `call` loaded about 25 of them after it had
// spawned its server; Node's ES module loader pays per module (resolve, realpath, read, compile,
// link: about 0.5 ms of CPU each on Node 24), on 2 cores the server's own start-up also needs.
//
// The files, each bundled from the built chunks:
//   dist/cli/main.js                        the bin's entry (the fast path)
//   dist/cli/call-path/early-server.js      the spawn of the server, before the rest loads
//   dist/cli/call-path/run-cli.js           the command line, once the server is spawned
//   dist/cli/call-path/call.js              `call` itself: config, arguments, output
//   dist/cli/call-path/connect-servers.js   the server set, the adapter's wiring, the cache
// In each, the static imports of the package's own chunks are inlined. A dynamic import of one of
// these sources (from any of these files) points to its file; every other dynamic import
// (commander's program, the error reporter, approval, OAuth, the HTTP transports...) stays an
// import of the shared chunk, and every bare import (node builtins, sibling packages,
// dependencies) stays an import. The dynamic imports stay boundaries, so each step loads what it
// did before and no more: `--help` loads no adapter, and a `call` the fast path did not start
// still spawns before the adapter loads.
//
// What this gives two copies of: a module two of these files inline (the default transport's
// wiring and the generated config schema are in early-server.js and again further on), or one of
// them and a shared chunk a rarer path loads. Those modules keep no state that two copies would
// split: functions, constants, a lazily imported module, and error classes that are recognised
// with `isInstance` (a shared marker, not `instanceof`); check-consumers runs the installed bin
// through the error reporter's chunk. The library's entries (dist/index.js and the rest) are not
// touched and never load these files.
import { readFileSync, readdirSync, writeFileSync, mkdirSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(packageDir, "dist");
const callPathDir = join(dist, "cli", "call-path");

/** What `call` imports dynamically from the bin's entry on: each gets a file of its own. */
const CALL_PATH_SOURCES = [
  "src/cli/early-server.ts",
  "src/cli/run-cli.ts",
  "src/cli/commands/call.ts",
  "src/cli/connect-servers.ts",
];
/** esbuild names the chunk of a dynamic import's target after its file: `call.ts` -> `call-<hash>.js`. */
const chunkNamePattern = (source) => new RegExp(`^${basename(source, ".ts")}-[A-Z0-9]+\\.js$`);
const outputOf = (source) => join(callPathDir, `${basename(source, ".ts")}.js`);

/** An import specifier for `target` as seen from a file in `fromDir`. */
function specifier(fromDir, target) {
  const path = relative(fromDir, target).replaceAll("\\", "/");
  return path.startsWith(".") ? path : `./${path}`;
}

/**
 * Bundles the built module `input` for `output`: its static chunk imports inlined, the rest kept as
 * imports; a dynamic import of a call-path source's chunk points to that source's file. Gives the
 * text, the built modules it inlined, and the call-path chunks it imports (source -> chunk).
 */
async function bundle(input, output) {
  const outputDir = dirname(output);
  const callPathImports = new Map();
  const result = await build({
    entryPoints: [input],
    absWorkingDir: packageDir,
    bundle: true,
    write: false,
    metafile: true,
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
            if (args.kind !== "dynamic-import") return undefined;
            const target = join(args.resolveDir, args.path);
            const source = CALL_PATH_SOURCES.find((candidate) => chunkNamePattern(candidate).test(basename(target)));
            if (source === undefined) return { path: specifier(outputDir, target), external: true };
            callPathImports.set(source, target);
            return { path: specifier(outputDir, outputOf(source)), external: true };
          });
        },
      },
    ],
  });
  const [file] = result.outputFiles;
  if (file === undefined) throw new Error(`bundle-cli: esbuild wrote nothing for ${relative(dist, input)}`);
  // The built modules inlined, each read as the shared build wrote it.
  const inlined = Object.keys(result.metafile.inputs).map((path) => readFileSync(join(packageDir, path), "utf8"));
  return { text: file.text, inlined, callPathImports };
}

const entry = join(dist, "cli", "main.js");
if (!readFileSync(entry, "utf8").startsWith("#!")) throw new Error("bundle-cli: dist/cli/main.js has no shebang");
const entryBundle = await bundle(entry, entry);
const written = new Map([[entry, entryBundle.text]]);
/** Call-path source -> its chunk, as found from the entry on; each chunk is bundled once. */
const chunks = new Map();
const pending = [entryBundle.callPathImports];
while (pending.length > 0) {
  for (const [source, chunk] of pending.pop()) {
    if (chunks.has(source)) {
      if (chunks.get(source) !== chunk) throw new Error(`bundle-cli: two chunks are named after ${source}`);
      continue;
    }
    chunks.set(source, chunk);
    const { text, inlined, callPathImports } = await bundle(chunk, outputOf(source));
    // The file holds its source's own code (the shared build heads each module's code with `// <its path>`).
    if (!inlined.some((built) => built.split("\n").includes(`// ${source}`)))
      throw new Error(`bundle-cli: the chunk named after ${source} does not hold it`);
    written.set(outputOf(source), text);
    pending.push(callPathImports);
  }
}
// A renamed source or a dynamic import gone from the path fails the build, not the bin.
const missing = CALL_PATH_SOURCES.filter((source) => !chunks.has(source));
if (missing.length > 0) throw new Error(`bundle-cli: not reached from the entry: ${missing.join(", ")}`);
const shebang = "#!/usr/bin/env node\n";
if (!entryBundle.text.startsWith("#!")) written.set(entry, shebang + entryBundle.text);
mkdirSync(callPathDir, { recursive: true });
for (const [path, text] of written) writeFileSync(path, text);
