#!/usr/bin/env node
// Runs after the package build (see package.json "build"): rewrites what the bin loads for
// `call` into a few self-contained files. The shared build splits the package into chunks (code
// two entries share goes into a chunk of its own), so `call` loaded about 25 of them after it had
// spawned its server; Node's ES module loader pays per module (resolve, realpath, read, compile,
// link: about 0.5 ms of CPU each on Node 24), on 2 cores the server's own start-up also needs.
//
// The files, each bundled from the built chunks:
//   dist/cli/main.js               the bin's entry (the fast path that spawns the server)
//   dist/cli/call-path/run-cli.js  the command line, once the server is spawned
//   dist/cli/call-path/call.js     `call` itself: config, arguments, output
//   dist/cli/call-path/connect-servers.js  the server set, the adapter's wiring, the cache
// In each, the static imports of the package's own chunks are inlined. A dynamic import of the next
// file on that list points to it; every other dynamic import (commander's program, the error
// reporter, approval, OAuth, the HTTP transports, the early spawn...) stays an import of the shared
// chunk, and every bare import (node builtins, sibling packages, dependencies) stays an import. The
// dynamic imports are kept as boundaries so each step loads what it did before and no more:
// `--help` loads no adapter, and a `call` the fast path did not start still spawns before the
// adapter loads.
//
// What this gives two copies of: a module the call path inlines and a shared chunk also holds,
// once a rarely taken path loads that chunk too. Those modules keep no state that two copies
// would split: functions, constants, and error classes that are recognised with `isInstance`
// (a shared marker, not `instanceof`). The library's entries (dist/index.js and the rest) are
// not touched and never load these files.
import { readFileSync, readdirSync, writeFileSync, mkdirSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(packageDir, "dist");
const chunksDir = join(dist, "chunks");
const callPathDir = join(dist, "cli", "call-path");

/** The call path after the entry, in load order: each is a dynamic import of the one before. */
const CALL_PATH_SOURCES = ["src/cli/run-cli.ts", "src/cli/commands/call.ts", "src/cli/connect-servers.ts"];

/** An import specifier for `target` as seen from a file in `fromDir`. */
function specifier(fromDir, target) {
  const path = relative(fromDir, target).replaceAll("\\", "/");
  return path.startsWith(".") ? path : `./${path}`;
}

/**
 * Bundles the built module `input` for `output`: its static chunk imports inlined, the rest kept as
 * imports. A dynamic import of the chunk named after `next` (esbuild names a dynamic import's chunk
 * after its source file: `call.ts` -> `call-<hash>.js`) points to `nextOutput`. Gives the text and
 * that chunk.
 */
async function bundle(input, output, next, nextOutput) {
  const outputDir = dirname(output);
  const nextChunk = next === undefined ? undefined : new RegExp(`^${basename(next, ".ts")}-[A-Z0-9]+\\.js$`);
  const nextTargets = new Set();
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
            if (nextChunk?.test(basename(target))) {
              nextTargets.add(target);
              return { path: specifier(outputDir, nextOutput), external: true };
            }
            return { path: specifier(outputDir, target), external: true };
          });
        },
      },
    ],
  });
  const [file] = result.outputFiles;
  if (file === undefined) throw new Error(`bundle-cli: esbuild wrote nothing for ${relative(dist, input)}`);
  if (next !== undefined && nextTargets.size !== 1)
    throw new Error(`bundle-cli: ${relative(dist, input)} imports ${nextTargets.size} chunks for ${next}, not 1`);
  // The built modules inlined, each read as the shared build wrote it.
  const inlined = Object.keys(result.metafile.inputs).map((path) => readFileSync(join(packageDir, path), "utf8"));
  return { text: file.text, inlined, nextInput: [...nextTargets][0] };
}

const entry = join(dist, "cli", "main.js");
if (!readFileSync(entry, "utf8").startsWith("#!")) throw new Error("bundle-cli: dist/cli/main.js has no shebang");
const written = [];
let input = entry;
let output = entry;
for (const [index, next] of [...CALL_PATH_SOURCES, undefined].entries()) {
  const nextOutput = next === undefined ? undefined : join(callPathDir, `${basename(next, ".ts")}.js`);
  const { text, inlined, nextInput } = await bundle(input, output, next, nextOutput);
  // Each bundle holds its source's own code (the shared build heads each module's code with `// <its path>`).
  const source = CALL_PATH_SOURCES[index - 1];
  if (source !== undefined && !inlined.some((built) => built.split("\n").includes(`// ${source}`)))
    throw new Error(`bundle-cli: ${relative(dist, output)} lacks ${source}`);
  written.push([output, text]);
  input = nextInput;
  output = nextOutput;
}
const shebang = "#!/usr/bin/env node\n";
if (!written[0][1].startsWith("#!")) written[0][1] = shebang + written[0][1];
mkdirSync(callPathDir, { recursive: true });
for (const [path, text] of written) writeFileSync(path, text);
