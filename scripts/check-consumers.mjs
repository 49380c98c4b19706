#!/usr/bin/env node
// The packages as a user gets them: pack every public package (packages/*/package.json without
// "private"), install the tarballs into one scratch project with npm and one with pnpm (no
// hoisting, so an undeclared dependency cannot hide behind another package's), then per package:
//   import   `import` it alone in a fresh Node process (no output on stderr, so no warnings)
//   require  `require()` it alone (ESM only; require(esm) from Node 20.19)
//   types    type-check a consumer with moduleResolution nodenext (skipLibCheck off) and bundler
//   browser  bundle it with esbuild for the browser (every package not in NODE_ONLY), then run
//            every bundle in a real browser (the system's Chromium through playwright-core, one
//            launch for all): it must import and pass a small use of its API with no page error
// then install the packages that need no MCP SDK alone (without it) and type-check them there,
// and once per project run a ten-line script: the umbrella against real server-memory over
// stdio, checked for correct results, a clean exit of its own, and none of the parts it does not
// use loaded (the bundled build keeps the laziness the sources' import-graph tests check). The tarballs themselves are
// checked first (LICENSE, no source maps of the JavaScript, registry-safe README links).
// Needs `pnpm build` first. Network: the npm registry only (third-party dependencies).
// Every failure is printed with its package manager, package and step; exit code 1 if any.
// Usage: node scripts/check-consumers.mjs [--keep] [--steps-niceness=N]
//   --keep leaves the scratch directory; --steps-niceness lowers the priority once the installs are done.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { setPriority, tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { browserEntry, findChromium, runBundlesInBrowser } from "./browser-bundles.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const requireFromRoot = createRequire(join(root, "package.json"));
const keep = process.argv.includes("--keep");
/** `--steps-niceness=N`: once every project is installed, lower this process's priority (and its later children's) to N. */
const stepsNiceness = (() => {
  const flag = process.argv.find((arg) => arg.startsWith("--steps-niceness="));
  if (flag === undefined) return undefined;
  const niceness = Number(flag.slice("--steps-niceness=".length));
  if (!Number.isInteger(niceness) || niceness < -20 || niceness > 19)
    throw new Error(`${flag}: give a whole number from -20 to 19`);
  return niceness;
})();

/** Packages that need Node at run time (processes, files); every other public package must bundle for a browser. */
const NODE_ONLY = new Set([
  "@mcp-tool-adapter/code-mode", // json-schema-to-typescript's $ref parser and prettier load Node modules
  "@mcp-tool-adapter/engine-2026",
  "@mcp-tool-adapter/gateway",
  "@mcp-tool-adapter/oauth",
  "@mcp-tool-adapter/transport-stdio",
  "mcp-tool-adapter",
]);
/** The consumer's own toolchain and the real server of the script, from the registry. */
// @types/json-schema: the AI SDK's own declarations (@ai-sdk/provider) import "json-schema" types
// without declaring them; an AI SDK user under pnpm without hoisting adds it as we do here.
const CONSUMER_DEV_DEPENDENCIES = { "@types/node": "^20.19.0", "@types/json-schema": "^7.0.15" };
/**
 * A hang bound per step, not a speed target: in CI the steps run at nice 10 beside the tests
 * (--steps-niceness), where importing the LangChain bridge, 2 s of CPU, once took over 60 s.
 */
const STEP_TIMEOUT_MS = 300_000;
/** Preloaded into the umbrella script: records every module URL the process resolves. */
// The shared test fixture (packages/test-helpers/src/import-recorder.ts names it for TypeScript tests).
const IMPORT_RECORDER = join(root, "packages/test-helpers/src/record-imports.mjs");
/**
 * What a stdio host of the umbrella must not load (under npm's and pnpm's layouts alike): the CLI,
 * the config-file parsers, OAuth, model-tools and the HTTP transports (their light config check
 * may load). ajv's optional builds and RE2 come through require(), which this recorder cannot
 * see; the sources' import-graph test covers them.
 */
const LOADED_ONLY_WHEN_USED =
  /\/node_modules\/(commander|ora|@inquirer\/[^/]+|typebox|yaml|jsonc-parser|@mcp-tool-adapter\/(oauth|model-tools))\/|\/node_modules\/@mcp-tool-adapter\/transport-http\/dist\/index\.js$/;

const packages = readdirSync(join(root, "packages"))
  .map((dir) => ({ dir: join(root, "packages", dir), manifestPath: join(root, "packages", dir, "package.json") }))
  .filter(({ manifestPath }) => existsSync(manifestPath))
  .map(({ dir, manifestPath }) => ({ dir, manifest: JSON.parse(readFileSync(manifestPath, "utf8")) }))
  .filter(({ manifest }) => manifest.private !== true)
  .map(({ dir, manifest }) => ({ dir, name: manifest.name, manifest }))
  .sort((a, b) => a.name.localeCompare(b.name));

const scratch = mkdtempSync(join(tmpdir(), "mcp-tool-adapter-consumers-"));
const failures = [];
let stepsRun = 0;
const started = performance.now();

function record(manager, pkg, step, problem) {
  stepsRun += 1;
  if (problem === undefined) return;
  failures.push({ manager, pkg, step, problem: problem.trim() });
  console.log(`✖ ${[manager, step, pkg].filter(Boolean).join(" / ")}\n${indent(problem.trim())}`);
}

function indent(text) {
  const lines = text.split("\n");
  const shown = lines.length > 25 ? [...lines.slice(0, 25), `... (${lines.length - 25} more lines)`] : lines;
  return shown.map((line) => `    ${line}`).join("\n");
}

/** Runs a command; resolves with its exit code and output (never rejects). */
function run(command, args, { cwd = root, env = process.env, timeoutMs = STEP_TIMEOUT_MS, input } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ code: -1, stdout, stderr: `${stderr}${error.message}`, timedOut });
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr, timedOut });
    });
    // A command that exits without reading its stdin makes this write fail (EPIPE); its exit is
    // what counts, and it arrives through "close".
    child.stdin.on("error", () => {});
    child.stdin.end(input ?? "");
  });
}

function describeRun(result, timeoutMs = STEP_TIMEOUT_MS) {
  if (result.timedOut) return `did not finish within ${timeoutMs} ms\n${result.stdout}${result.stderr}`;
  return `exit code ${result.code}\n${result.stdout}${result.stderr}`;
}

/** Runs jobs with at most `limit` at a time (the CI machine has two cores). */
async function inParallel(items, limit, job) {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: Math.min(limit, queue.length) }, async () => {
      while (queue.length > 0) await job(queue.shift());
    }),
  );
}

function unsafeFileName(name) {
  return name.replace(/^@/, "").replace(/\//g, "__");
}

/** The umbrella's sub-entries (code most hosts never run, kept out of its main entry): checked like main entries. */
const SUB_ENTRIES = { "mcp-tool-adapter": ["http", "model-tools", "oauth"], "@mcp-tool-adapter/apps": ["server"] };

/** What a consumer imports of a package: its main entry, then its sub-entries. */
function entrySpecifiers(pkg) {
  return [pkg.name, ...(SUB_ENTRIES[pkg.name] ?? []).map((sub) => `${pkg.name}/${sub}`)];
}

/** A file name for one entry's type check; sub-entries after "--", which no package name contains. */
function entryFileName(pkg, specifier) {
  const sub = specifier.slice(pkg.name.length + 1);
  return sub === "" ? unsafeFileName(pkg.name) : `${unsafeFileName(pkg.name)}--${sub}`;
}

// ── 1. Pack and inspect the tarballs ─────────────────────────────────────────────────────────────
const tarballDir = join(scratch, "tarballs");
mkdirSync(tarballDir);
const rootLicense = readFileSync(join(root, "LICENSE"), "utf8");

await inParallel(packages, 2, async (pkg) => {
  if (!existsSync(join(pkg.dir, "dist"))) {
    record("", pkg.name, "pack", `no dist/ in ${relative(root, pkg.dir)}: run "pnpm build" first`);
    return;
  }
  const packDir = join(tarballDir, unsafeFileName(pkg.name));
  mkdirSync(packDir);
  const packed = await run("pnpm", ["pack", "--pack-destination", packDir], { cwd: pkg.dir });
  const file = readdirSync(packDir).find((f) => f.endsWith(".tgz"));
  if (packed.code !== 0 || file === undefined) {
    record("", pkg.name, "pack", describeRun(packed));
    return;
  }
  pkg.tarball = join(packDir, file);
  record("", pkg.name, "pack");

  const listing = await run("tar", ["-tzf", pkg.tarball]);
  const files = listing.stdout
    .split("\n")
    .filter(Boolean)
    .map((f) => f.replace(/^package\//, ""));
  const problems = [];
  if (!files.includes("LICENSE")) problems.push("no LICENSE file in the tarball");
  else if (readFileSync(join(pkg.dir, "LICENSE"), "utf8") !== rootLicense)
    problems.push("LICENSE differs from the repository's LICENSE");
  const maps = files.filter((f) => f.endsWith(".js.map"));
  if (maps.length > 0)
    problems.push(
      `JavaScript source maps in the tarball (${maps.slice(0, 3).join(", ")}...): they point at code a user never runs`,
    );
  if (!files.includes("dist/index.js") || !files.includes("dist/index.d.ts"))
    problems.push("dist/index.js or dist/index.d.ts missing from the tarball");
  const repositoryUrl = pkg.manifest.repository?.url ?? "";
  if (!/^git\+https:\/\/github\.com\//.test(repositoryUrl))
    problems.push(`repository.url is not the GitHub repository: "${repositoryUrl}"`);
  const readme = existsSync(join(pkg.dir, "README.md")) ? readFileSync(join(pkg.dir, "README.md"), "utf8") : "";
  const relativeLinks = [...readme.matchAll(/\]\((?!https?:|#|mailto:)([^)]+)\)/g)].map((m) => m[1]);
  if (relativeLinks.length > 0)
    problems.push(
      `README links that break on the registry's page (use absolute GitHub URLs): ${relativeLinks.join(", ")}`,
    );
  record("", pkg.name, "tarball contents", problems.length > 0 ? problems.join("\n") : undefined);
});

const packedPackages = packages.filter((pkg) => pkg.tarball !== undefined);
/** Every browser bundle that built, run together in one browser at the end: `{ manager, pkg, code }`. */
const browserBundles = [];
console.log(
  `  packed ${packedPackages.length} of ${packages.length} public packages after ${Math.round((performance.now() - started) / 1000)} s`,
);

// An install waits on the registry and, in CI, shares two cores with the test run beside it.
const INSTALL_TIMEOUT_MS = 600_000;

// ── 2. One scratch project per package manager ──────────────────────────────────────────────────
const managers = [
  {
    name: "npm",
    setUp(dir) {
      const dependencies = Object.fromEntries(packedPackages.map((pkg) => [pkg.name, `file:${pkg.tarball}`]));
      // Dependencies between our packages resolve to these tarballs, never to the registry.
      const overrides = Object.fromEntries(packedPackages.map((pkg) => [pkg.name, `$${pkg.name}`]));
      writeFileSync(
        join(dir, "package.json"),
        JSON.stringify(
          {
            name: "consumer-npm",
            private: true,
            type: "module",
            dependencies,
            devDependencies: CONSUMER_DEV_DEPENDENCIES,
            overrides,
          },
          null,
          2,
        ),
      );
      return run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], {
        cwd: dir,
        timeoutMs: INSTALL_TIMEOUT_MS,
      });
    },
  },
  {
    name: "pnpm",
    types: true,
    setUp(dir) {
      const dependencies = Object.fromEntries(packedPackages.map((pkg) => [pkg.name, `file:${pkg.tarball}`]));
      writeFileSync(
        join(dir, "package.json"),
        JSON.stringify(
          {
            name: "consumer-pnpm",
            private: true,
            type: "module",
            dependencies,
            devDependencies: CONSUMER_DEV_DEPENDENCIES,
          },
          null,
          2,
        ),
      );
      // hoist: false: a package sees only what it declares (pnpm's default hoists everything into
      // .pnpm/node_modules, where an undeclared import still resolves).
      const overrides = packedPackages.map((pkg) => `  "${pkg.name}": "file:${pkg.tarball}"`).join("\n");
      writeFileSync(
        join(dir, "pnpm-workspace.yaml"),
        `hoist: false\npublicHoistPattern: []\noverrides:\n${overrides}\n`,
      );
      return run("pnpm", ["install", "--no-frozen-lockfile", "--prefer-offline", "--reporter=append-only"], {
        cwd: dir,
        timeoutMs: INSTALL_TIMEOUT_MS,
        env: { ...process.env, npm_config_yes: "true" },
      });
    },
  },
];

/** Sets up and installs one manager's project: its directory, or undefined (recorded) when the install failed. */
async function installProject(manager) {
  const dir = join(scratch, manager.name);
  mkdirSync(dir);
  const installStarted = performance.now();
  const installed = await manager.setUp(dir);
  if (installed.code !== 0) {
    record(manager.name, "", "install", describeRun(installed, INSTALL_TIMEOUT_MS));
    console.log(`  (${manager.name} install failed; its other steps are skipped)`);
    return undefined;
  }
  record(manager.name, "", "install");
  console.log(
    `  ${manager.name}: installed ${packedPackages.length} tarballs in ${Math.round(performance.now() - installStarted)} ms`,
  );
  return { manager, dir };
}

const umbrella = packedPackages.find((pkg) => pkg.name === "mcp-tool-adapter");
const serverMemoryEntry = resolveBin("@modelcontextprotocol/server-memory", join(root, "packages", "test-servers"));

// Every project is installed first, npm's and pnpm's side by side (an install mostly waits on the
// registry and the disk), so the steps after them can run at a lower priority: in CI the check
// starts beside the tests, at their priority only while it installs (see --steps-niceness).
const [[installedByNpm, installedWithoutSdk], installedByPnpm] = await Promise.all([
  installProject(managers[0]).then(async (installed) => [installed, await installWithoutSdk()]),
  installProject(managers[1]),
]);
if (stepsNiceness !== undefined) setPriority(stepsNiceness);

for (const installed of [installedByNpm, installedByPnpm]) {
  if (installed === undefined) continue;
  const { manager, dir } = installed;
  await inParallel(packedPackages, 2, async (pkg) => {
    for (const entry of entrySpecifiers(pkg)) {
      const specifier = JSON.stringify(entry);
      const imported = await run(
        process.execPath,
        [
          "--input-type=module",
          "-e",
          `const api = await import(${specifier}); if (Object.keys(api).length === 0) throw new Error("no exports");`,
        ],
        { cwd: dir },
      );
      record(
        manager.name,
        entry,
        "import",
        imported.code === 0 && imported.stderr === "" ? undefined : describeRun(imported),
      );
      const required = await run(
        process.execPath,
        ["-e", `const api = require(${specifier}); if (Object.keys(api).length === 0) throw new Error("no exports");`],
        { cwd: dir },
      );
      record(
        manager.name,
        entry,
        "require",
        required.code === 0 && required.stderr === "" ? undefined : describeRun(required),
      );
    }
  });

  if (umbrella !== undefined) {
    await runUmbrellaScript(manager.name, dir);
    await runInstalledCli(manager.name, dir);
  }
  // Types only where nothing is hoisted: what npm's flat layout would add is already seen here,
  // and the nodenext run checks every .d.ts of the MCP SDK (40 s of CPU).
  if (manager.types)
    await Promise.all(["nodenext", "bundler"].map((resolution) => typeCheck(manager.name, dir, resolution)));
  await bundleForBrowser(manager.name, dir);
  console.log(`  ${manager.name}: done after ${Math.round((performance.now() - started) / 1000)} s`);
}
await runBrowserBundles();

// ── 3. The SDK-free packages alone: no MCP SDK installed, no DOM types ──────────────────────────
// A user who picks only schema-validation (or the registry, ...) gets no SDK; their types must
// still check. In the projects above the SDK is always there (the umbrella brings it), so an
// import of the SDK's types from one of these would pass unnoticed.
if (installedWithoutSdk !== undefined) await typeCheckWithoutSdk(installedWithoutSdk);

// ── 4. Report ────────────────────────────────────────────────────────────────────────────────────
if (keep) console.log(`Scratch projects kept in ${scratch}`);
else rmSync(scratch, { recursive: true, force: true });
const seconds = ((performance.now() - started) / 1000).toFixed(1);
if (failures.length === 0) {
  console.log(
    `Consumer check OK: ${stepsRun} steps over ${packages.length} packages (${packages.map((p) => p.name).join(", ")}), npm and pnpm, in ${seconds} s`,
  );
} else {
  console.log(`\nConsumer check FAILED in ${seconds} s: ${failures.length} of ${stepsRun} steps:`);
  for (const f of failures)
    console.log(`  ${[f.manager, f.step, f.pkg].filter(Boolean).join(" / ")}: ${f.problem.split("\n")[0]}`);
  process.exitCode = 1;
}

// ── Steps ────────────────────────────────────────────────────────────────────────────────────────

/** The umbrella against real server-memory over stdio: a write, a read that sees it, and an exit of its own. */
async function runUmbrellaScript(manager, dir) {
  const memoryFile = join(dir, "memory.jsonl");
  const script = `import { MCPToolAdapter, ToolRegistry } from "mcp-tool-adapter";
const adapter = new MCPToolAdapter({ name: "memory", transport: "stdio", command: process.execPath, args: [process.env.SERVER_ENTRY], env: { MEMORY_FILE_PATH: process.env.MEMORY_FILE } });
await adapter.connect({ timeoutMs: 120_000 });
const registry = new ToolRegistry();
await adapter.registerTools(registry, "memory");
const write = await registry.call("memory/create_entities", { entities: [{ name: "tarball", entityType: "check", observations: ["installed from a tarball"] }] });
const read = await adapter.invoke("read_graph", {});
await adapter.disconnect();
if (!write.success || !read.success || !JSON.stringify(read.data).includes("installed from a tarball")) throw new Error(JSON.stringify({ write, read }));
console.log(JSON.stringify(await globalThis.resolvedModuleUrls()));
`;
  writeFileSync(join(dir, "umbrella-script.mjs"), script);
  const timeoutMs = STEP_TIMEOUT_MS;
  const result = await run(process.execPath, ["--import", IMPORT_RECORDER, "umbrella-script.mjs"], {
    cwd: dir,
    timeoutMs,
    env: { ...process.env, SERVER_ENTRY: serverMemoryEntry, MEMORY_FILE: memoryFile },
  });
  const loaded = result.code === 0 && result.stderr === "" ? parsedModuleList(result.stdout) : undefined;
  record(
    manager,
    "mcp-tool-adapter",
    "script (umbrella + server-memory over stdio, exits by itself)",
    loaded === undefined ? describeRun(result, timeoutMs) : undefined,
  );
  // The bundled build must keep what the sources' import-graph tests promise.
  const notNeeded = (loaded ?? []).filter((url) => LOADED_ONLY_WHEN_USED.test(url));
  record(
    manager,
    "mcp-tool-adapter",
    "lazy loading (the stdio script loads no CLI, HTTP transport, OAuth, model-tools or config-file code)",
    notNeeded.length > 0 ? `loaded: ${notNeeded.join(", ")}` : undefined,
  );
}

/**
 * The installed `mcp-tool-adapter` command: its bin runs the published dist/cli/main.js (the
 * entry and the files of `call`'s path, each bundled after the build, loading the other shared
 * chunks on rarer paths; see the package's scripts/bundle-cli.mjs), so this is the one place that
 * build is run as a user runs it: `--help`, then a write and a read against real server-memory
 * through a JSON config, each exiting by itself; a bad target (a usage error the bundled `call`
 * throws and the shared error reporter must recognise: exit 2), and an entry the bin's fast path
 * leaves to `call`'s own early spawn.
 */
async function runInstalledCli(manager, dir) {
  const bin = resolveBin("mcp-tool-adapter", dir);
  const configFile = join(dir, "cli-mcp.json");
  const memoryFile = join(dir, "cli-memory.jsonl");
  writeFileSync(
    configFile,
    JSON.stringify({
      mcpServers: {
        memory: { command: process.execPath, args: [serverMemoryEntry], env: { MEMORY_FILE_PATH: memoryFile } },
      },
    }),
  );
  // The command's tool-list cache stays in the scratch project: never the user's own cache
  // (the tests beside this check fail a run that writes there).
  const env = { ...process.env, MCP_TOOL_ADAPTER_CACHE_DIR: join(dir, "cli-cache") };
  const help = await run(process.execPath, [bin, "--help"], { cwd: dir, env });
  record(
    manager,
    "mcp-tool-adapter",
    "bin --help",
    help.code === 0 && help.stdout.includes("call") ? undefined : describeRun(help),
  );
  const entities = JSON.stringify({
    entities: [{ name: "from-the-bin", entityType: "check", observations: ["written by call"] }],
  });
  const write = await run(
    process.execPath,
    [bin, "call", "memory/create_entities", "--config", configFile, "--args", entities, "--yes"],
    { cwd: dir, env },
  );
  const read = await run(process.execPath, [bin, "call", "memory/read_graph", "--config", configFile], {
    cwd: dir,
    env,
  });
  record(
    manager,
    "mcp-tool-adapter",
    "bin call (server-memory over stdio: a write, then a read that sees it)",
    write.code !== 0
      ? describeRun(write)
      : read.code === 0 && read.stdout.includes("from-the-bin")
        ? undefined
        : describeRun(read),
  );
  const usage = await run(process.execPath, [bin, "call", "memory", "--config", configFile], { cwd: dir, env });
  record(
    manager,
    "mcp-tool-adapter",
    "bin call with a bad target (usage error, exit 2)",
    usage.code === 2 && usage.stderr.includes("is not a tool name") ? undefined : describeRun(usage),
  );
  // A field the fast path does not read (connectTimeoutMs): `call` reads the config and spawns the server itself.
  const slowConfigFile = join(dir, "cli-mcp-timeout.json");
  const { mcpServers } = JSON.parse(readFileSync(configFile, "utf8"));
  writeFileSync(
    slowConfigFile,
    JSON.stringify({ mcpServers: { memory: { ...mcpServers.memory, connectTimeoutMs: 60_000 } } }),
  );
  const early = await run(process.execPath, [bin, "call", "memory/read_graph", "--config", slowConfigFile], {
    cwd: dir,
    env,
  });
  record(
    manager,
    "mcp-tool-adapter",
    "bin call of an entry the fast path leaves to call (server-memory over stdio)",
    early.code === 0 && early.stdout.includes("from-the-bin") ? undefined : describeRun(early),
  );
}

function parsedModuleList(stdout) {
  try {
    const urls = JSON.parse(stdout);
    return Array.isArray(urls) && urls.length > 0 ? urls : undefined;
  } catch {
    return undefined;
  }
}

/** One consumer file per package, type-checked together; an error is attributed to the package its file or path names. */
async function typeCheck(manager, dir, resolution) {
  const typesDir = join(dir, `types-${resolution}`);
  mkdirSync(typesDir, { recursive: true });
  for (const pkg of packedPackages) {
    for (const entry of entrySpecifiers(pkg)) {
      writeFileSync(
        join(typesDir, `${entryFileName(pkg, entry)}.ts`),
        `import * as api from ${JSON.stringify(entry)};\nexport const names: string[] = Object.keys(api);\n`,
      );
    }
  }
  // "DOM" in both: the MCP SDK's own declarations name DOM's HeadersInit (README, Requirements).
  const compilerOptions =
    resolution === "nodenext"
      ? { module: "nodenext", moduleResolution: "nodenext", lib: ["ES2023", "DOM"], types: ["node"] }
      : { module: "esnext", moduleResolution: "bundler", lib: ["ES2023", "DOM"], types: ["node"] };
  // Every declaration file (ours and our dependencies') is checked once, under nodenext, the
  // stricter resolution; under bundler only what a consumer's own file sees (the entries resolve
  // and type-check), since checking the same declarations again cost 40 s of CPU.
  const skipLibCheck = resolution !== "nodenext";
  writeFileSync(
    join(dir, `tsconfig.${resolution}.json`),
    JSON.stringify(
      {
        // skipDefaultLibCheck: TypeScript's own lib files are not a package's declarations (lib.dom
        // alone is 39,000 lines); every package's, ours and our dependencies', is still checked.
        compilerOptions: {
          ...compilerOptions,
          target: "ES2022",
          strict: true,
          noEmit: true,
          skipLibCheck,
          skipDefaultLibCheck: true,
        },
        include: [`types-${resolution}/*.ts`],
      },
      null,
      2,
    ),
  );
  const tsc = requireFromRoot.resolve("typescript/bin/tsc");
  // About 40 s of CPU with every declaration checked; generous because CI machines are shared.
  const timeoutMs = 600_000;
  const result = await run(process.execPath, [tsc, "-p", `tsconfig.${resolution}.json`, "--pretty", "false"], {
    cwd: dir,
    timeoutMs,
  });
  if (result.code === 0) {
    for (const pkg of packedPackages) record(manager, pkg.name, `types (${resolution})`);
    return;
  }
  const errorsByPackage = new Map();
  for (const line of result.stdout.split("\n").filter((l) => /error TS\d+/.test(l))) {
    const owner = packedPackages.find(
      (pkg) =>
        line.startsWith(`types-${resolution}/${unsafeFileName(pkg.name)}.ts`) ||
        line.startsWith(`types-${resolution}/${unsafeFileName(pkg.name)}--`) ||
        line.includes(`node_modules/${pkg.name}/`) ||
        line.includes(`${pkg.name.replace("/", "+")}@`),
    );
    const name = owner?.name ?? "(a dependency)";
    errorsByPackage.set(name, [...(errorsByPackage.get(name) ?? []), line]);
  }
  if (errorsByPackage.size === 0) errorsByPackage.set("(tsc)", [describeRun(result, timeoutMs)]);
  for (const pkg of packedPackages)
    record(manager, pkg.name, `types (${resolution})`, errorsByPackage.get(pkg.name)?.join("\n"));
  for (const [name, lines] of errorsByPackage) {
    if (!packedPackages.some((pkg) => pkg.name === name))
      record(manager, name, `types (${resolution})`, lines.join("\n"));
  }
}

/** Installs, with npm, the packages whose dependency closure has no MCP SDK: `{ dir, sdkFree }`, or undefined (recorded) on failure. */
async function installWithoutSdk() {
  const byName = new Map(packedPackages.map((pkg) => [pkg.name, pkg]));
  const needsSdk = (pkg, seen = new Set()) => {
    if (seen.has(pkg.name)) return false;
    seen.add(pkg.name);
    const dependencies = { ...pkg.manifest.dependencies, ...pkg.manifest.peerDependencies };
    return Object.keys(dependencies).some(
      (name) => name === "@modelcontextprotocol/sdk" || (byName.has(name) && needsSdk(byName.get(name), seen)),
    );
  };
  // The bridges are left out: their frameworks (peer dependencies) need DOM types of their own.
  const sdkFree = packedPackages.filter(
    (pkg) => !needsSdk(pkg) && Object.keys(pkg.manifest.peerDependencies ?? {}).length === 0,
  );
  const dir = join(scratch, "without-sdk");
  mkdirSync(dir);
  const dependencies = Object.fromEntries(sdkFree.map((pkg) => [pkg.name, `file:${pkg.tarball}`]));
  const overrides = Object.fromEntries(sdkFree.map((pkg) => [pkg.name, `$${pkg.name}`]));
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify(
      {
        name: "consumer-without-sdk",
        private: true,
        type: "module",
        dependencies,
        devDependencies: CONSUMER_DEV_DEPENDENCIES,
        overrides,
      },
      null,
      2,
    ),
  );
  const installed = await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], {
    cwd: dir,
    timeoutMs: INSTALL_TIMEOUT_MS,
  });
  if (installed.code !== 0) {
    record("npm", "", "install without the SDK", describeRun(installed, INSTALL_TIMEOUT_MS));
    return undefined;
  }
  if (existsSync(join(dir, "node_modules", "@modelcontextprotocol", "sdk"))) {
    record(
      "npm",
      "",
      "install without the SDK",
      `@modelcontextprotocol/sdk was installed although none of ${sdkFree.map((pkg) => pkg.name).join(", ")} declares it`,
    );
    return undefined;
  }
  return { dir, sdkFree };
}

/** Type-checks the SDK-free packages installed alone (nodenext, ES2023 only, every package's declarations). */
async function typeCheckWithoutSdk({ dir, sdkFree }) {
  for (const pkg of sdkFree)
    writeFileSync(
      join(dir, `${unsafeFileName(pkg.name)}.ts`),
      `import * as api from ${JSON.stringify(pkg.name)};\nexport const names: string[] = Object.keys(api);\n`,
    );
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify(
      {
        compilerOptions: {
          module: "nodenext",
          moduleResolution: "nodenext",
          lib: ["ES2023"],
          types: ["node"],
          target: "ES2022",
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          skipDefaultLibCheck: true,
        },
        include: ["*.ts"],
      },
      null,
      2,
    ),
  );
  const tsc = requireFromRoot.resolve("typescript/bin/tsc");
  const result = await run(process.execPath, [tsc, "-p", "tsconfig.json", "--pretty", "false"], {
    cwd: dir,
    timeoutMs: 600_000,
  });
  for (const pkg of sdkFree) {
    const lines = result.stdout
      .split("\n")
      .filter(
        (line) =>
          /error TS\d+/.test(line) &&
          (line.startsWith(`${unsafeFileName(pkg.name)}.ts`) || line.includes(`node_modules/${pkg.name}/`)),
      );
    record("npm", pkg.name, "types without the MCP SDK", lines.length > 0 ? lines.join("\n") : undefined);
  }
  // tsc failed on something no package's file or path names (a dependency's types, or tsc itself).
  const attributed = failures.some((f) => f.step === "types without the MCP SDK");
  if (result.code !== 0 && !attributed)
    record("npm", "(a dependency)", "types without the MCP SDK", describeRun(result, 600_000));
}

/**
 * esbuild --bundle --platform=browser, as a web app would, with no externals and no flags of ours,
 * of a page's module that imports the package and runs a small use of it (browser-bundles.mjs).
 */
async function bundleForBrowser(manager, dir) {
  const esbuild = await import(requireFromRoot.resolve("esbuild"));
  for (const pkg of packedPackages.filter((p) => !NODE_ONLY.has(p.name))) {
    try {
      const built = await esbuild.build({
        stdin: { contents: browserEntry(pkg.name), resolveDir: dir, loader: "js" },
        bundle: true,
        platform: "browser",
        format: "esm",
        write: false,
        logLevel: "silent",
      });
      browserBundles.push({ manager, pkg: pkg.name, code: built.outputFiles[0].text });
      record(manager, pkg.name, "browser bundle (esbuild)");
    } catch (error) {
      const messages = (error.errors ?? []).map(
        (e) => `${e.location ? `${e.location.file}:${e.location.line}: ` : ""}${e.text}`,
      );
      record(manager, pkg.name, "browser bundle (esbuild)", messages.length > 0 ? messages.join("\n") : String(error));
    }
  }
}

/** Loads every bundle in one Chromium; each must import, pass its use and raise no page error. */
async function runBrowserBundles() {
  if (browserBundles.length === 0) return;
  const executablePath = findChromium();
  if (executablePath === undefined) {
    record(
      "",
      "(all browser bundles)",
      "browser run (chromium)",
      "no Chromium found (set CHROMIUM_PATH, or install it: apt-get install -y chromium; .ci/run does)",
    );
    return;
  }
  const runStarted = performance.now();
  let outcomes;
  try {
    outcomes = await runBundlesInBrowser(
      browserBundles.map((bundle) => ({ key: `${bundle.manager} ${bundle.pkg}`, code: bundle.code })),
      { executablePath },
    );
  } catch (error) {
    record("", "(all browser bundles)", "browser run (chromium)", `${executablePath} did not start: ${error}`);
    return;
  }
  for (const bundle of browserBundles)
    record(bundle.manager, bundle.pkg, "browser run (chromium)", outcomes.get(`${bundle.manager} ${bundle.pkg}`));
  console.log(
    `  browser: ran ${browserBundles.length} bundles in ${Math.round(performance.now() - runStarted)} ms (${executablePath})`,
  );
}

/** Absolute path of a package's bin script, resolved the way Node would from `fromDir`. */
function resolveBin(name, fromDir) {
  const manifestPath = createRequire(join(fromDir, "package.json")).resolve(`${name}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
  const bin = typeof manifest.bin === "string" ? manifest.bin : Object.values(manifest.bin ?? {})[0];
  return join(dirname(manifestPath), bin);
}
