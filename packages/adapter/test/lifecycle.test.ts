import {
  createHangingTransport,
  createInMemoryTestServer,
  createRefusingTransport,
  failAfterConnects,
  TransportDecorator,
  withCloseError,
  type TestTool,
} from "@mcp-tool-adapter/test-servers";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { describe, expect, it } from "vitest";
import { MCPConfigError, MCPConnectionError, MCPNotConnectedError, MCPToolAdapter } from "../src/index.js";
import { BUILT_IN_ENGINES, connectedHarness, createHarness, STDIO_CONFIG, waitFor } from "./helpers.js";

/** A tool that runs until the call is cancelled (or `release` is called). */
function blockingTool(name = "block"): TestTool & { started: number; aborted: number } {
  const tool = {
    name,
    started: 0,
    aborted: 0,
    handler: (_args: Record<string, unknown>, extra: { signal: AbortSignal }) =>
      new Promise((resolve) => {
        tool.started += 1;
        extra.signal.addEventListener("abort", () => {
          tool.aborted += 1;
          resolve({ content: [] });
        });
      }),
  };
  return tool;
}

/** close() rejects and leaves the inner transport open: nothing ever reports the close. */
class StuckCloseTransport extends TransportDecorator {
  override close(): Promise<void> {
    return Promise.reject(new Error("injected: close failed"));
  }
}

/** close() never settles. */
class HangingCloseTransport extends TransportDecorator {
  override close(): Promise<void> {
    return new Promise(() => undefined);
  }
}

describe("connect", () => {
  it("performs the handshake and sets serverCapabilities and serverInfo", async () => {
    const { adapter } = await connectedHarness({ name: "caps-server", version: "9.9.9" });
    expect(adapter.isConnected).toBe(true);
    expect(adapter.serverCapabilities?.tools).toEqual({ listChanged: true });
    expect(adapter.serverInfo).toMatchObject({ name: "caps-server", version: "9.9.9" });
    await adapter.disconnect();
    expect(adapter.serverCapabilities).toBeUndefined();
  });

  it("is idempotent: a second connect opens no second connection", async () => {
    const server = createInMemoryTestServer();
    let transports = 0;
    const adapter = new MCPToolAdapter(STDIO_CONFIG, { transport: () => ((transports += 1), server.connect()) });
    await adapter.connect();
    await adapter.connect();
    expect(transports).toBe(1);
    expect(adapter.isConnected).toBe(true);
    await adapter.disconnect();
  });

  it("concurrent connects share one handshake", async () => {
    const server = createInMemoryTestServer();
    let transports = 0;
    const adapter = new MCPToolAdapter(STDIO_CONFIG, { transport: () => ((transports += 1), server.connect()) });
    const results = await Promise.allSettled([adapter.connect(), adapter.connect(), adapter.connect()]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "fulfilled"]);
    expect(transports).toBe(1);
    await adapter.disconnect();
  });

  it("accepts a Transport instance as well as a factory", async () => {
    const server = createInMemoryTestServer();
    const adapter = new MCPToolAdapter(STDIO_CONFIG, { transport: await server.connect() });
    await adapter.connect();
    expect(adapter.isConnected).toBe(true);
    await adapter.disconnect();
  });

  it("without a transport throws MCPConfigError telling what to do", async () => {
    const adapter = new MCPToolAdapter(STDIO_CONFIG);
    const error = await adapter.connect().catch((e: unknown) => e);
    expect(MCPConfigError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/pass \{ transport \}/);
    expect((error as Error).message).toContain('"mcp-tool-adapter" package');
    expect(adapter.isConnected).toBe(false);
  });

  it("a refused connection is an MCPConnectionError naming server, transport and cause", async () => {
    const transport = createRefusingTransport();
    const adapter = new MCPToolAdapter({ name: "github", transport: "stdio", command: "x" }, { transport });
    const error = await adapter.connect().catch((e: unknown) => e);
    expect(MCPConnectionError.isInstance(error)).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain("connection");
    expect(message).toContain('"github"');
    expect(message).toContain("stdio");
    expect(message).toContain("ECONNREFUSED");
    expect((error as MCPConnectionError).serverName).toBe("github");
    expect((error as Error).cause).toBeInstanceOf(Error);
    expect(adapter.isConnected).toBe(false);
  });

  it.each(["start", "initialize"] as const)(
    "times out when the transport hangs on %s, and closes the transport",
    async (hangOn) => {
      const transport = createHangingTransport(hangOn);
      const adapter = new MCPToolAdapter(STDIO_CONFIG, { transport });
      const error = await adapter.connect({ timeoutMs: 50 }).catch((e: unknown) => e);
      expect(MCPConnectionError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain("connection");
      expect((error as Error).message).toContain("timed out after 50 ms");
      expect(transport.closed).toBe(true);
      expect(adapter.isConnected).toBe(false);
    },
  );

  it("times out a factory that never returns, and closes the transport it returns late", async () => {
    const late = createHangingTransport("initialize");
    let release: (t: Transport) => void = () => undefined;
    const adapter = new MCPToolAdapter(STDIO_CONFIG, {
      transport: () => new Promise<Transport>((resolve) => (release = resolve)),
    });
    const error = await adapter.connect({ timeoutMs: 30 }).catch((e: unknown) => e);
    expect(MCPConnectionError.isInstance(error)).toBe(true);
    release(late);
    await waitFor(() => late.closed);
  });

  it("a factory that throws or returns a non-transport is a connection error", async () => {
    const throwing = new MCPToolAdapter(STDIO_CONFIG, {
      transport: () => {
        throw new Error("factory broke");
      },
    });
    await expect(throwing.connect()).rejects.toThrow(/connection.*factory broke/);
    const bogus = new MCPToolAdapter(STDIO_CONFIG, { transport: () => ({}) as Transport });
    await expect(bogus.connect()).rejects.toThrow(/did not return a Transport/);
  });

  it("can connect again after a failed attempt", async () => {
    const server = createInMemoryTestServer();
    let attempt = 0;
    const adapter = new MCPToolAdapter(STDIO_CONFIG, {
      transport: () => (++attempt === 1 ? createRefusingTransport() : server.connect()),
    });
    await expect(adapter.connect()).rejects.toThrow(MCPConnectionError);
    await adapter.connect();
    expect(adapter.isConnected).toBe(true);
    await adapter.disconnect();
  });
});

describe("disconnect", () => {
  it("disconnects and is safe to repeat or call when never connected", async () => {
    const { adapter } = await connectedHarness();
    await adapter.disconnect();
    expect(adapter.isConnected).toBe(false);
    await adapter.disconnect();
    const fresh = createHarness().adapter;
    await fresh.disconnect();
    expect(fresh.isConnected).toBe(false);
  });

  it("ends disconnected when the transport errors on close", async () => {
    const server = createInMemoryTestServer();
    const warnings: string[] = [];
    const adapter = new MCPToolAdapter(STDIO_CONFIG, {
      transport: async () => withCloseError(await server.connect()),
      logger: { warn: (m) => warnings.push(m) },
    });
    await adapter.connect();
    await adapter.disconnect();
    expect(adapter.isConnected).toBe(false);
    expect(warnings.join("\n")).toContain("disconnected anyway");
  });

  // The default engine abandons its requests itself; on sdk-v1 the adapter's wrapper settles them.
  it.each(BUILT_IN_ENGINES)(
    "settles in-flight calls with connection closed, even when the transport never closes (engine: $engine)",
    async ({ engine }) => {
      const tool = blockingTool();
      const server = createInMemoryTestServer({ tools: [tool] });
      const adapter = new MCPToolAdapter(STDIO_CONFIG, {
        transport: async () => new StuckCloseTransport(await server.connect()),
        logger: {},
        ...(engine === undefined ? {} : { engine }),
      });
      await adapter.connect();
      await adapter.discoverTools();
      const calls = [adapter.invoke("block"), adapter.invoke("block")];
      await waitFor(() => tool.started === 2);
      await adapter.disconnect();
      const results = await Promise.all(calls);
      for (const result of results) {
        expect(result).toMatchObject({ success: false, errorKind: "connection_lost", data: null });
        expect(result.error).toContain("connection closed");
        expect(result.error).toContain("disconnect() was called");
      }
      expect(adapter.isConnected).toBe(false);
      await server.close();
    },
  );

  it("in-flight calls end on the server too when disconnect closes the transport", async () => {
    const tool = blockingTool();
    const { adapter, server } = await connectedHarness({ tools: [tool] });
    await adapter.discoverTools();
    const withSignal = adapter.invoke("block", {}, { signal: new AbortController().signal });
    const withoutSignal = adapter.invoke("block", {});
    await waitFor(() => tool.started === 2);
    await adapter.disconnect();
    expect((await withSignal).errorKind).toBe("connection_lost");
    expect((await withoutSignal).errorKind).toBe("connection_lost");
    await waitFor(() => tool.aborted === 2);
    await server.close();
  });

  it("gives up on a transport whose close never settles after closeTimeoutMs", async () => {
    const server = createInMemoryTestServer();
    const adapter = new MCPToolAdapter(STDIO_CONFIG, {
      transport: async () => new HangingCloseTransport(await server.connect()),
      closeTimeoutMs: 30,
      logger: {},
    });
    await adapter.connect();
    await adapter.disconnect();
    expect(adapter.isConnected).toBe(false);
    await server.close();
  });
});

describe("reconnect", () => {
  it("restores the connection after a disconnect, with a fresh transport", async () => {
    const server = createInMemoryTestServer();
    let transports = 0;
    const adapter = new MCPToolAdapter(STDIO_CONFIG, { transport: () => ((transports += 1), server.connect()) });
    await adapter.connect();
    await adapter.disconnect();
    await adapter.reconnect();
    expect(adapter.isConnected).toBe(true);
    expect(transports).toBe(2);
    await adapter.disconnect();
  });

  it("clears the tool cache", async () => {
    const { adapter } = await connectedHarness({ tools: [{ name: "a" }, { name: "b" }, { name: "c" }] });
    await adapter.discoverTools();
    expect(adapter.discoveredTools).toHaveLength(3);
    await adapter.reconnect();
    expect(adapter.discoveredTools).toHaveLength(0);
    expect(adapter.isConnected).toBe(true);
    await adapter.disconnect();
  });

  it("fails with MCPConnectionError when the server is gone, and ends disconnected", async () => {
    const server = createInMemoryTestServer();
    const source = failAfterConnects(() => server.connect(), 1);
    const adapter = new MCPToolAdapter(STDIO_CONFIG, { transport: source });
    await adapter.connect();
    const error = await adapter.reconnect({ timeoutMs: 1_000 }).catch((e: unknown) => e);
    expect(MCPConnectionError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/^Reconnect failed: could not establish a connection/);
    expect(adapter.isConnected).toBe(false);
    expect(source.attempts).toBe(2);
  });

  it("times out when the new transport hangs", async () => {
    const server = createInMemoryTestServer();
    let attempt = 0;
    const hanging = createHangingTransport("start");
    const adapter = new MCPToolAdapter(STDIO_CONFIG, {
      transport: () => (++attempt === 1 ? server.connect() : hanging),
    });
    await adapter.connect();
    await expect(adapter.reconnect({ timeoutMs: 40 })).rejects.toThrow(/connection.*timed out after 40 ms/);
    expect(hanging.closed).toBe(true);
  });
});

describe("lifecycle ordering", () => {
  it("runs lifecycle calls in call order: the last one wins", async () => {
    const { adapter } = await connectedHarness();
    const disconnect = adapter.disconnect();
    const connect = adapter.connect();
    await Promise.all([disconnect, connect]);
    expect(adapter.isConnected).toBe(true);
    const connectAgain = adapter.connect();
    const disconnectAgain = adapter.disconnect();
    await Promise.all([connectAgain, disconnectAgain]);
    expect(adapter.isConnected).toBe(false);
  });

  it("never exposes a half-open connection: invoke during connect throws not connected", async () => {
    const server = createInMemoryTestServer({ tools: [{ name: "echo" }] });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const adapter = new MCPToolAdapter(STDIO_CONFIG, { transport: async () => (await gate, server.connect()) });
    const connecting = adapter.connect();
    expect(adapter.isConnected).toBe(false);
    await expect(adapter.invoke("echo")).rejects.toThrow(MCPNotConnectedError);
    release();
    await connecting;
    expect((await adapter.invoke("echo")).success).toBe(true);
    await adapter.disconnect();
  });
});

describe("connection dropped by the server", () => {
  it("becomes disconnected, settles pending calls with connection_lost, then invoke throws not connected", async () => {
    const tool = blockingTool();
    const { adapter, server } = await connectedHarness({ tools: [tool, { name: "echo" }] }, { logger: {} });
    await adapter.discoverTools();
    const pending = adapter.invoke("block");
    await waitFor(() => tool.started === 1);
    await server.close();
    const result = await pending;
    expect(result).toMatchObject({ success: false, errorKind: "connection_lost" });
    expect(result.error).toContain("connection lost");
    expect(result.error).toContain("the server closed the connection");
    expect(adapter.isConnected).toBe(false);
    const error = await adapter.invoke("echo").catch((e: unknown) => e);
    expect(MCPNotConnectedError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain("not connected");
    // Recovery, as the spec's example does it.
    await adapter.reconnect();
    await adapter.discoverTools();
    expect((await adapter.invoke("echo", { x: 1 })).success).toBe(true);
    await adapter.disconnect();
  });
});
