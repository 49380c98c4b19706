import { createServer, type Server } from "node:http";
import { expectNoLeakedProcesses, findFreePort, startEverythingHttp } from "@mcp-tool-adapter/test-servers";
import { afterEach, describe, expect, it } from "vitest";
import { HttpTransport } from "../src/http-entry.js";
import { StdioTransport } from "@mcp-tool-adapter/transport-stdio";
import { MCPConnectionError, createDefaultTransport, MCPToolAdapter } from "../src/index.js";

describe("createDefaultTransport", () => {
  it("builds a stdio transport for stdio configs, without starting anything", async () => {
    const transport = await createDefaultTransport({
      name: "s",
      transport: "stdio",
      command: process.execPath,
      args: ["-e", "0"],
    });
    if (!(transport instanceof StdioTransport)) throw new Error("expected a StdioTransport");
    expect(transport.pid).toBeUndefined();
    await transport.close();
  });

  it("builds HTTP transports of the right kind for sse and streamable-http", async () => {
    const sse = await createDefaultTransport({ name: "h", transport: "sse", url: "http://127.0.0.1:9/sse" });
    const streamable = await createDefaultTransport({
      name: "h",
      transport: "streamable-http",
      url: "http://127.0.0.1:9/mcp",
      headers: { "x-a": "b" },
    });
    if (!(sse instanceof HttpTransport) || !(streamable instanceof HttpTransport))
      throw new Error("expected HttpTransports");
    expect(sse.transportType).toBe("sse");
    expect(streamable.transportType).toBe("streamable-http");
    await Promise.all([sse.close(), streamable.close()]);
  });

  it("passes the logger down to the transports that have none", async () => {
    const messages: string[] = [];
    const logger = {
      debug: (m: string) => messages.push(m),
      info: (m: string) => messages.push(m),
      warn: (m: string) => messages.push(m),
    };
    const adapter = new MCPToolAdapter(
      {
        name: "quick-exit",
        transport: "stdio",
        command: process.execPath,
        args: ["-e", "process.stderr.write('bye\\n')"],
      },
      { logger },
    );
    await expect(adapter.connect({ timeoutMs: 10_000 })).rejects.toThrow(MCPConnectionError);
    expect(messages.length).toBeGreaterThan(0);
  });
});

describe("umbrella MCPToolAdapter", () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
    await expectNoLeakedProcesses();
  });

  it("a command that does not exist is a connection error naming server, transport and cause; no process is left", async () => {
    const adapter = new MCPToolAdapter({
      name: "ghost",
      transport: "stdio",
      command: "/nonexistent/mcp-server-binary",
    });
    const error = await adapter.connect({ timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(MCPConnectionError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/connection to MCP server "ghost" over stdio/);
    expect((error as Error).message).toMatch(/ENOENT|not found|spawn/i);
    expect(adapter.isConnected).toBe(false);
  });

  it("a server that exits during the handshake is a connection error and is reaped", async () => {
    const adapter = new MCPToolAdapter({
      name: "quitter",
      transport: "stdio",
      command: process.execPath,
      args: ["-e", "setTimeout(() => process.exit(3), 50)"],
    });
    await expect(adapter.connect({ timeoutMs: 10_000 })).rejects.toThrow(/connection/);
  });

  it("a server that exits during the handshake: the error names its exit code and stderr, with one full stop", async () => {
    const adapter = new MCPToolAdapter(
      {
        name: "quitter",
        transport: "stdio",
        command: process.execPath,
        args: ["-e", "process.stderr.write('missing API_KEY\\n'); setTimeout(() => process.exit(3), 50)"],
      },
      { logger: {} },
    );
    const error = await adapter.connect({ timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(MCPConnectionError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(
      ": the server exited with code 3; its stderr ended with: missing API_KEY. Check that the server can start",
    );
    expect(((error as Error).cause as { code?: unknown }).code).toBe("SERVER_EXITED");
  });

  it("a missing command's connect error has no double full stop", async () => {
    const adapter = new MCPToolAdapter({
      name: "ghost",
      transport: "stdio",
      command: "/nonexistent/mcp-server-binary",
    });
    const error = await adapter.connect({ timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/"command"\. Check that the server can start/);
    expect((error as Error).message).not.toMatch(/\.\./);
  });

  it("a streamable-HTTP result over the transport's message limit is result_too_large, and the session goes on", async () => {
    const server = await startEverythingHttp({ mode: "streamableHttp" });
    try {
      const adapter = new MCPToolAdapter(
        { name: "everything", transport: "streamable-http", url: server.url },
        { logger: {}, maxResultBytes: 10_000, transportOptions: { http: { maxMessageBytes: 20_000 } } },
      );
      await adapter.connect({ timeoutMs: 20_000 });
      const result = await adapter.invoke("echo", { message: "x".repeat(30_000) }, { timeoutMs: 20_000 });
      expect(result).toMatchObject({ success: false, errorKind: "result_too_large" });
      expect(result.error).toContain("maxMessageBytes (20000 bytes)");
      expect((await adapter.invoke("echo", { message: "small" })).success).toBe(true);
      await adapter.disconnect();
    } finally {
      await server.stop();
    }
  }, 60_000);

  it("a hanging stdio server times out and its process is killed", async () => {
    const adapter = new MCPToolAdapter({
      name: "sleeper",
      transport: "stdio",
      command: process.execPath,
      args: ["-e", "setInterval(() => {}, 1000)"],
    });
    const error = await adapter.connect({ timeoutMs: 300 }).catch((e: unknown) => e);
    expect((error as Error).message).toContain("timed out after 300 ms");
  });

  it.each(["sse", "streamable-http"] as const)("an unreachable %s url is a connection error", async (transport) => {
    const port = await findFreePort();
    const adapter = new MCPToolAdapter({ name: "nowhere", transport, url: `http://127.0.0.1:${port}/mcp` });
    const error = await adapter.connect({ timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(MCPConnectionError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(`over ${transport}`);
  });

  it("an HTTP endpoint that is not an MCP server is a connection error", async () => {
    const server = createServer((_req, res) => res.writeHead(404).end("no mcp here"));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    const adapter = new MCPToolAdapter({
      name: "not-mcp",
      transport: "streamable-http",
      url: `http://127.0.0.1:${port}/mcp`,
    });
    await expect(adapter.connect({ timeoutMs: 10_000 })).rejects.toThrow(MCPConnectionError);
  });

  it("an explicit transport still wins over the default", async () => {
    let used = false;
    const adapter = new MCPToolAdapter(
      { name: "x", transport: "stdio", command: "unused" },
      {
        transport: () => {
          used = true;
          throw new Error("custom factory");
        },
      },
    );
    await expect(adapter.connect()).rejects.toThrow(/custom factory/);
    expect(used).toBe(true);
  });

  it("keeps the base class's static inferCapabilities", () => {
    expect(MCPToolAdapter.inferCapabilities("list_repos")).toMatchObject({ readOnly: true, writes: false });
  });
});
