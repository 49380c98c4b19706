import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { IMPORT_RECORDER_PATH } from "@mcp-tool-adapter/test-helpers";
import { startEverythingHttp } from "@mcp-tool-adapter/test-servers";
import { describe, expect, it } from "vitest";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
/** The adapter's package, where the real OpenTelemetry SDK (its dev dependency) resolves. */
const adapterPackageDir = fileURLToPath(new URL("../../adapter", import.meta.url));
const runCliModule = new URL("../src/cli/run-cli.ts", import.meta.url).href;

/** The module URLs a fresh Node process resolves while running `script` (an ES module body). */
async function modulesResolvedBy(script: string): Promise<string[]> {
  return (await printedBy(script)) as string[];
}

/** What `script`, run in a fresh Node process that records resolved modules, prints as JSON. */
async function printedBy(script: string, cwd = packageDir): Promise<unknown> {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "--conditions=@mcp-tool-adapter/source",
      "--import",
      IMPORT_RECORDER_PATH,
      "--input-type=module",
      "-e",
      script,
    ],
    { cwd, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  if (code !== 0) throw new Error(`the import script exited with ${code}: ${stderr}`);
  return JSON.parse(stdout) as unknown;
}

/** A stdio MCP server with one `echo` tool. */
const LISTING_LOG_SERVER = fileURLToPath(new URL("./fixtures/listing-log-server.mjs", import.meta.url));
/** The most modules `call` may load from the sources: what it loads now plus a little room. */
const CALL_MODULE_CEILING = 310;

const printResolved = "console.log(JSON.stringify(await globalThis.resolvedModuleUrls()));";

describe("importing the library", () => {
  it("does not load the CLI's argument parser or spinner, nor SDK 1.x's types, Protocol and what they bring", async () => {
    const urls = await modulesResolvedBy(`await import("mcp-tool-adapter"); ${printResolved}`);
    // The recorder works: the library and its own dependencies were seen.
    expect(urls.some((url) => url.includes("/packages/mcp-tool-adapter/src/index.ts"))).toBe(true);
    expect(urls.some((url) => url.includes("/packages/core/src/index.ts"))).toBe(true);
    expect(urls.filter((url) => /\/node_modules\/(\.pnpm\/)?(commander|ora)[@/]/.test(url))).toEqual([]);
    // The default engine speaks JSON-RPC itself: SDK 1.x's types.js (its Zod schemas, some 5 MB of
    // live heap), its Protocol and zod load with its Client (engine: "sdk-v1"), the legacy SSE transport or OAuth only.
    expect(
      urls.filter((url) =>
        /\/sdk\/dist\/esm\/types\.js$|\/shared\/protocol\.js$|\/node_modules\/(\.pnpm\/)?zod[@/]|\/zod-to-json-schema\//.test(
          url,
        ),
      ),
    ).toEqual([]);
  });

  it("does not load the HTTP transports, OAuth or model-tools for a host of stdio servers", async () => {
    const script = `const { MCPServerSet, MCPToolAdapter, createApprovalInterceptor } = await import("mcp-tool-adapter");
      new MCPToolAdapter({ name: "a", transport: "stdio", command: "node" }, { interceptors: [createApprovalInterceptor({ approve: () => true })] });
      const set = new MCPServerSet({ quick: { transport: "stdio", command: process.execPath, args: ["-e", ""] } }, { connectTimeoutMs: 30_000 });
      await set.connect();
      await set.close();
      ${printResolved}`;
    const urls = await modulesResolvedBy(script);
    // The set did build its stdio server's adapter and transport.
    expect(urls.some((url) => url.includes("/packages/transport-stdio/src/stdio-transport.ts"))).toBe(true);
    // node:crypto costs 8-12 ms to import; a stdio host never needs it (its spawn uses the global Web Crypto).
    expect(urls).not.toContain("node:crypto");
    // The adapter checks HTTP configs with transport-http's light config entry; nothing else of it may load.
    const httpConfigCheck = /\/packages\/transport-http\/src\/config-(entry|check)\.ts$/;
    expect(
      urls.filter(
        (url) => /\/packages\/(transport-http|oauth|model-tools)\/src\//.test(url) && !httpConfigCheck.test(url),
      ),
    ).toEqual([]);
    expect(
      urls.filter((url) => /\/@modelcontextprotocol\+sdk[^/]*\/.*\/client\/(auth|sse|streamableHttp)\.js$/.test(url)),
    ).toEqual([]);
  });

  it("loads the HTTP transports once an HTTP server is connected", async () => {
    const script = `const { MCPServerSet } = await import("mcp-tool-adapter");
      const set = new MCPServerSet({ web: { transport: "streamable-http", url: "http://127.0.0.1:1/mcp" } }, { connectTimeoutMs: 30_000, auth: { storedLogins: false } });
      await set.connect();
      await set.close();
      ${printResolved}`;
    const urls = await modulesResolvedBy(script);
    expect(urls.some((url) => url.includes("/packages/transport-http/src/index.ts"))).toBe(true);
  });

  it("speaks streamable HTTP without SDK 1.x's client transports, auth, types.js or zod", async () => {
    const server = await startEverythingHttp({ mode: "streamableHttp" });
    try {
      const script = `const { MCPToolAdapter } = await import("mcp-tool-adapter");
        const adapter = new MCPToolAdapter({ name: "web", transport: "streamable-http", url: ${JSON.stringify(server.url)} });
        await adapter.connect();
        const tools = await adapter.discoverTools();
        const result = await adapter.invoke("echo", { message: "over HTTP" });
        if (tools.length === 0 || !result.success) throw new Error("the HTTP call failed: " + JSON.stringify(result));
        await adapter.disconnect();
        ${printResolved}`;
      const urls = await modulesResolvedBy(script);
      expect(urls.some((url) => url.includes("/packages/transport-http/src/streamable-client.ts"))).toBe(true);
      // The legacy SSE transport and the OAuth flow load SDK 1.x's client modules when they are used.
      expect(
        urls.filter((url) =>
          /\/sdk\/dist\/esm\/(types|client\/(auth|sse|streamableHttp))\.js$|\/node_modules\/(\.pnpm\/)?zod[@/]/.test(
            url,
          ),
        ),
      ).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  it("loads ajv's draft 2019-09 and 2020-12 builds and the RE2 engine only once a schema needs them", async () => {
    const script = `const { createRequire } = await import("node:module");
      await import("mcp-tool-adapter");
      const { createSchemaValidator } = await import("@mcp-tool-adapter/schema-validation");
      const loaded = async () => [...(await globalThis.resolvedModuleUrls()), ...Object.keys(createRequire(import.meta.url).cache)];
      const validator = createSchemaValidator();
      validator.compile({ type: "object", properties: { a: { type: "string" } } });
      const draft07 = await loaded();
      validator.compile({ $schema: "https://json-schema.org/draft/2020-12/schema", type: "string", pattern: "^a+$" });
      console.log(JSON.stringify({ draft07, patterned: await loaded() }));`;
    const { draft07, patterned } = (await printedBy(script)) as { draft07: string[]; patterned: string[] };
    const optional = (url: string) => /\/(ajv\/dist\/20(19|20)\.js|re2js\/)/.test(url);
    expect(draft07.some((url) => url.includes("/packages/schema-validation/src/"))).toBe(true);
    expect(draft07.filter(optional)).toEqual([]);
    expect(patterned.some((url) => url.includes("ajv/dist/2020.js"))).toBe(true);
    expect(patterned.some((url) => url.includes("/re2js/"))).toBe(true);
  });

  it("answers --version and --help without loading the adapter, the transports or the SDK", async () => {
    const script = `const { runCli } = await import(${JSON.stringify(runCliModule)});
      const io = { stdout: { write() { return true; } }, stderr: { write() { return true; } } };
      if (await runCli(["--version"], io) !== 0 || await runCli(["--help"], io) !== 0) throw new Error("the CLI failed");
      ${printResolved}`;
    const urls = await modulesResolvedBy(script);
    expect(urls.some((url) => /\/node_modules\/(\.pnpm\/)?commander[@/]/.test(url))).toBe(true);
    expect(
      urls.filter(
        (url) =>
          /\/node_modules\/(\.pnpm\/)?(typebox|ajv|@modelcontextprotocol\+sdk|zod)[@/]/.test(url) ||
          url.includes("/packages/adapter/"),
      ),
    ).toEqual([]);
  });

  it("checks the stdio fields for the adapter with the transport's config check, never its process code", async () => {
    const urls = await modulesResolvedBy(`await import("@mcp-tool-adapter/adapter"); ${printResolved}`);
    expect(urls.some((url) => url.includes("/packages/transport-stdio/src/config-check.ts"))).toBe(true);
    expect(
      urls.filter(
        (url) => url === "node:child_process" || url.includes("/packages/transport-stdio/src/stdio-transport.ts"),
      ),
    ).toEqual([]);
  });

  it("does not load TypeBox or the config-file parsers for an adapter, only once a config file is read", async () => {
    const script = `const { MCPToolAdapter } = await import("mcp-tool-adapter");
      new MCPToolAdapter({ name: "a", transport: "stdio", command: "node", args: ["-e", ""] });
      new MCPToolAdapter({ name: "b", transport: "streamable-http", url: "http://127.0.0.1:1/mcp" });
      ${printResolved}`;
    const urls = await modulesResolvedBy(script);
    expect(urls.some((url) => url.includes("/packages/adapter/src/config.ts"))).toBe(true);
    expect(urls.filter((url) => /\/node_modules\/(\.pnpm\/)?(typebox|yaml|jsonc-parser)[@/]/.test(url))).toEqual([]);
    expect(
      urls.filter((url) => url.includes("/src/config-schema") || url.includes("/src/config-file/normalize")),
    ).toEqual([]);
  });

  it("does not load OpenTelemetry for a connected adapter until something is registered with it", async () => {
    const script = `const { MCPToolAdapter } = await import("@mcp-tool-adapter/adapter");
      const { McpServer } = await import("@modelcontextprotocol/sdk/server/mcp.js");
      const { InMemoryTransport } = await import("@modelcontextprotocol/sdk/inMemory.js");
      const transport = async () => {
        const [client, server] = InMemoryTransport.createLinkedPair();
        const mcp = new McpServer({ name: "s", version: "1.0.0" });
        mcp.registerTool("ping", {}, () => ({ content: [{ type: "text", text: "pong" }] }));
        await mcp.connect(server);
        return client;
      };
      const adapter = new MCPToolAdapter({ name: "s", transport: "stdio", command: "node" }, { transport });
      await adapter.connect();
      if (!(await adapter.invoke("ping", {})).success) throw new Error("the call failed");
      const before = await globalThis.resolvedModuleUrls();
      const { trace } = await import("@opentelemetry/api");
      const { BasicTracerProvider } = await import("@opentelemetry/sdk-trace-base");
      trace.setGlobalTracerProvider(new BasicTracerProvider());
      await adapter.invoke("ping", {});
      await adapter.disconnect();
      console.log(JSON.stringify({ before, after: await globalThis.resolvedModuleUrls() }));`;
    const { before, after } = (await printedBy(script, adapterPackageDir)) as { before: string[]; after: string[] };
    const otelApi = (url: string) => /\/node_modules\/(\.pnpm\/)?@opentelemetry(\+|\/)api[@/]/.test(url);
    expect(before.some((url) => url.includes("/packages/adapter/src/telemetry/instrumentation.ts"))).toBe(true);
    expect(before.filter(otelApi)).toEqual([]);
    expect(after.some(otelApi)).toBe(true);
  });

  it("loads the config-file code once a config is parsed, and checks it without TypeBox", async () => {
    const script = `const { parseConfig } = await import("mcp-tool-adapter");
      await parseConfig('{ "mcpServers": { "a": { "command": "node", "connectTimeoutMs": 5 } } }', { file: "mcp.json", env: {} });
      ${printResolved}`;
    const urls = await modulesResolvedBy(script);
    expect(urls.some((url) => url.includes("/packages/mcp-tool-adapter/src/config-file/normalize.ts"))).toBe(true);
    // The entry is checked against the schema generated from the TypeBox one (config-file-schema-generated.test.ts).
    expect(urls.some((url) => url.includes("/src/config-file/entry-options-schema.generated.ts"))).toBe(true);
    expect(
      urls.filter((url) => /\/node_modules\/(\.pnpm\/)?typebox[@/]/.test(url) || url.includes("/src/config-schema")),
    ).toEqual([]);
  });

  it("reads a config file, as `call` does before it spawns the server, without the adapter, the SDK or zod", async () => {
    const loader = new URL("../src/config-file/load-config-file.ts", import.meta.url).href;
    const script = `const { parseConfig } = await import(${JSON.stringify(loader)});
      parseConfig('{ "mcpServers": { "a": { "command": "node", "args": ["s.js"], "connectTimeoutMs": 5 } } }', { file: "mcp.json", env: {} });
      ${printResolved}`;
    const urls = await modulesResolvedBy(script);
    expect(urls.some((url) => url.includes("/packages/adapter/src/config.ts"))).toBe(true);
    expect(
      urls.filter(
        (url) =>
          /\/node_modules\/(\.pnpm\/)?(typebox|zod|@modelcontextprotocol\+sdk)[@/]/.test(url) ||
          url.includes("/packages/adapter/src/index.ts") ||
          url.includes("/packages/adapter/src/mcp-tool-adapter.ts"),
      ),
    ).toEqual([]);
  });

  it("runs `call` against a stdio server loading no TypeBox, OAuth, model-tools or ajv, and few modules", async () => {
    const directory = await mkdtemp(join(tmpdir(), "call-modules-"));
    try {
      const config = join(directory, "mcp.json");
      await writeFile(
        config,
        JSON.stringify({ mcpServers: { probe: { command: process.execPath, args: [LISTING_LOG_SERVER] } } }),
      );
      const argv = ["call", "probe/echo", "--args", '{"message":"hi"}', "--yes", "--config", config];
      const script = `const { runCli } = await import(${JSON.stringify(runCliModule)});
        let output = "";
        const write = (chunk) => { output += chunk; return true; };
        const env = { ...process.env, NO_COLOR: "1", MCP_TOOL_ADAPTER_CACHE_DIR: ${JSON.stringify(join(directory, "cache"))} };
        const code = await runCli(${JSON.stringify(argv)}, { stdout: { write }, stderr: { write }, env, isTTY: false });
        // CommonJS modules loaded with require() (the YAML library) pass no ESM hook: ask the require cache.
        const required = Object.keys((await import("node:module")).createRequire(import.meta.url).cache);
        console.log(JSON.stringify({ code, output, urls: await globalThis.resolvedModuleUrls(), required }));`;
      const { code, output, urls, required } = (await printedBy(script)) as {
        code: number;
        output: string;
        urls: string[];
        required: string[];
      };
      expect({ code, output }).toMatchObject({ code: 0, output: expect.stringContaining("hi") as unknown });
      const unneeded = (url: string) =>
        /\/node_modules\/(\.pnpm\/)?(typebox|ajv|@inquirer|ora)[@/]/.test(url) ||
        /\/packages\/(oauth|model-tools|transport-http\/src\/(?!config-(entry|check)\.ts))/.test(url) ||
        /\/sdk\/dist\/esm\/(client\/auth|shared\/auth)/.test(url);
      expect(urls.filter(unneeded)).toEqual([]);
      // A plain JSON config needs no YAML parser (some 230 modules) and no JSONC parser, and a
      // call line the exact scan reads whole no argument parser.
      // Output to a pipe, without colour: no colour library, and so no node:tty (about 6 ms on
      // Node 24); the cache's entry names need no node:crypto (more than 10 ms).
      expect(
        required.filter((file) => /\/node_modules\/(\.pnpm\/)?(yaml|jsonc-parser|commander|picocolors)[@/]/.test(file)),
      ).toEqual([]);
      expect(urls.filter((url) => url === "node:tty" || url === "node:crypto")).toEqual([]);
      // 283 when this was written (from the sources: every source file is a module; 96 are zod's,
      // through the MCP SDK's types), 867 before the config check stopped loading TypeBox.
      expect(urls.length).toBeLessThanOrEqual(CALL_MODULE_CEILING);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it("loads the argument parser once the CLI runs", async () => {
    const script = `const { runCli } = await import("mcp-tool-adapter");
      const io = { stdout: { write() { return true; } }, stderr: { write() { return true; } } };
      await runCli(["--version"], io);
      ${printResolved}`;
    const urls = await modulesResolvedBy(script);
    expect(urls.some((url) => /\/node_modules\/(\.pnpm\/)?commander[@/]/.test(url))).toBe(true);
  });
});
