import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport as V2StdioTransport } from "@modelcontextprotocol/client/stdio";
import { MCPToolAdapter } from "mcp-tool-adapter";
import { CLI_BIN, GATEWAY_DIR, httpGatewayForFile } from "./fixtures.js";
import { SERVE_CONNECT_TIMEOUT_MS } from "./gateway-endpoints.js";

// Clients no one here wrote (the SDK v2 client, LangChain's MCP adapters, the MCP Inspector's CLI)
// and our own adapter, each listing and calling through the gateway over streamable HTTP (a gateway
// in this process) and over stdio (`mcp-tool-adapter serve`, started by the client as a host would).
const execFileAsync = promisify(execFile);
const INSPECTOR_CLI = join(
  dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/inspector-cli/package.json")),
  "build",
  "index.js",
);

const running = httpGatewayForFile();
const serveArgs = (): string[] => [CLI_BIN, "serve", "--config", running.upstreams.configFile];

describe("SDK v2 client (@modelcontextprotocol/client), 2025 era", () => {
  const transports = [
    { label: "HTTP", make: () => new V2HttpTransport(new URL(running.http.url)) },
    {
      label: "stdio",
      make: () =>
        new V2StdioTransport({ command: process.execPath, args: serveArgs(), cwd: GATEWAY_DIR, stderr: "ignore" }),
    },
  ];
  it.each(transports)("lists and calls over $label", { timeout: 120_000 }, async ({ make }) => {
    const client = new V2Client(
      { name: "v2-client", version: "1" },
      { capabilities: {}, versionNegotiation: { mode: "legacy" } },
    );
    await client.connect(make());
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(["everything__echo", "memory__read_graph"]),
      );
      const result = await client.callTool({ name: "everything__echo", arguments: { message: "v2 says hi" } });
      expect(JSON.stringify(result.content)).toContain("v2 says hi");
    } finally {
      await client.close();
    }
  });
});

describe("LangChain MCP adapters (MultiServerMCPClient)", () => {
  const connections = [
    { label: "HTTP", connection: () => ({ transport: "http" as const, url: running.http.url }) },
    {
      label: "stdio",
      connection: () => ({
        transport: "stdio" as const,
        command: process.execPath,
        args: serveArgs(),
        cwd: GATEWAY_DIR,
        stderr: "ignore" as const,
      }),
    },
  ];
  it.each(connections)("gets the tools and invokes one over $label", { timeout: 120_000 }, async ({ connection }) => {
    const client = new MultiServerMCPClient({
      mcpServers: { gateway: connection() },
      prefixToolNameWithServerName: false,
    });
    try {
      const tools = await client.getTools();
      const echo = tools.find((tool) => tool.name === "everything__echo");
      expect(echo).toBeDefined();
      const output: unknown = await echo?.invoke({ message: "langchain says hi" });
      expect(JSON.stringify(output)).toContain("langchain says hi");
      const listDirectory = tools.find((tool) => tool.name === "filesystem__list_directory");
      expect(JSON.stringify(await listDirectory?.invoke({ path: running.upstreams.directory.path }))).toContain(
        "hello.txt",
      );
    } finally {
      await client.close();
    }
  });
});

describe("MCP Inspector CLI (@modelcontextprotocol/inspector-cli), as a child process", () => {
  /** `target`: a URL, or a command whose arguments follow the inspector's own options after `--`. */
  const inspector = async (target: { server: string; args?: string[] }, method: string[]): Promise<unknown> => {
    // Run from its build directory: 1.0.3 looks for its package.json relative to the working
    // directory (fs.existsSync("../package.json")) before importing it relative to itself.
    const { stdout } = await execFileAsync(
      process.execPath,
      [INSPECTOR_CLI, target.server, ...method, ...(target.args === undefined ? [] : ["--", ...target.args])],
      {
        cwd: dirname(INSPECTOR_CLI),
        timeout: 90_000,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    return JSON.parse(stdout) as unknown;
  };
  const targets = [
    { label: "HTTP", target: () => ({ server: running.http.url }) },
    // `serve` finds @mcp-tool-adapter/gateway from its working directory, and the inspector starts it in its own.
    {
      label: "stdio",
      target: () => ({ server: "/usr/bin/env", args: [`--chdir=${GATEWAY_DIR}`, process.execPath, ...serveArgs()] }),
    },
  ];
  it.each(targets)("lists tools and calls one over $label", { timeout: 180_000 }, async ({ target }) => {
    const listed = (await inspector(target(), ["--method", "tools/list"])) as { tools: { name: string }[] };
    expect(listed.tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["everything__echo", "memory__read_graph"]),
    );
    const called = await inspector(target(), [
      "--method",
      "tools/call",
      "--tool-name",
      "everything__echo",
      "--tool-arg",
      "message=inspector says hi",
    ]);
    expect(JSON.stringify(called)).toContain("inspector says hi");
  });
});

describe("our own adapter (MCPToolAdapter)", () => {
  const configs = [
    {
      label: "HTTP",
      config: () => ({ name: "gateway", transport: "streamable-http" as const, url: running.http.url }),
    },
    {
      label: "stdio",
      config: () => ({
        name: "gateway",
        transport: "stdio" as const,
        command: process.execPath,
        args: serveArgs(),
        cwd: GATEWAY_DIR,
      }),
    },
  ];
  it.each(configs)("discovers and invokes over $label", { timeout: 120_000 }, async ({ config }) => {
    const adapter = new MCPToolAdapter(config(), { connectTimeoutMs: SERVE_CONNECT_TIMEOUT_MS });
    await adapter.connect();
    try {
      const tools = await adapter.discoverTools();
      expect(tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(["everything__echo", "filesystem__read_text_file"]),
      );
      const read = await adapter.invoke("filesystem__read_text_file", {
        path: join(running.upstreams.directory.path, "hello.txt"),
      });
      expect(read.success).toBe(true);
      expect(JSON.stringify(read.data)).toContain("hello from the filesystem server");
    } finally {
      await adapter.disconnect();
    }
  });
});
