import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import {
  connectionRefusedError,
  createHangingTransport,
  createInMemoryTestServer,
  createRefusingTransport,
  failAfterConnects,
  startTcpRelay,
  withCallFault,
  withCallResultRewrite,
  withCloseError,
  type InMemoryTestServer,
} from "../src/index.js";

const servers: InMemoryTestServer[] = [];
const clients: Client[] = [];

function server(): InMemoryTestServer {
  const created = createInMemoryTestServer({ tools: [{ name: "echo" }, { name: "crash_tool" }] });
  servers.push(created);
  return created;
}

function client(): Client {
  const created = new Client({ name: "faults-test", version: "1.0.0" });
  clients.push(created);
  return created;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe("connectionRefusedError", () => {
  it("looks like Node's refused TCP connect", () => {
    const error = connectionRefusedError("127.0.0.1:4321");
    expect(error.code).toBe("ECONNREFUSED");
    expect(error.message).toBe("connect ECONNREFUSED 127.0.0.1:4321");
  });
});

describe("RefusingTransport", () => {
  it("makes a client's connect reject with the refusal", async () => {
    const transport = createRefusingTransport();
    await expect(client().connect(transport)).rejects.toMatchObject({ code: "ECONNREFUSED" });
    expect(transport.startAttempts).toBe(1);
  });
});

describe("HangingTransport", () => {
  it("keeps start pending until close, which then rejects it", async () => {
    const transport = createHangingTransport("start");
    let settled: "pending" | "resolved" | "rejected" = "pending";
    const started = transport.start().then(
      () => (settled = "resolved"),
      () => (settled = "rejected"),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe("pending");
    await transport.close();
    await started;
    expect(settled).toBe("rejected");
    expect(transport.closed).toBe(true);
  });

  it("never answers initialize, and close fires onclose", async () => {
    const transport = createHangingTransport("initialize");
    const connecting = client().connect(transport, { timeout: 50 });
    await expect(connecting).rejects.toBeInstanceOf(McpError);
    expect(transport.sent.map((m) => ("method" in m ? m.method : undefined))).toContain("initialize");
  });

  it("closes once: onclose fires on the first close only", async () => {
    const transport = createHangingTransport("initialize");
    let closedEvents = 0;
    transport.onclose = () => (closedEvents += 1);
    await transport.start();
    await transport.close();
    await transport.close();
    expect(closedEvents).toBe(1);
    await expect(transport.send({ jsonrpc: "2.0", method: "ping", id: 1 })).rejects.toThrow("closed");
  });
});

describe("withCloseError", () => {
  it("closes the inner transport, then rejects", async () => {
    const inner = await server().connect();
    const transport = withCloseError(inner, new Error("close boom"));
    const c = client();
    await c.connect(transport);
    let closed = false;
    c.onclose = () => (closed = true);
    await expect(transport.close()).rejects.toThrow("close boom");
    expect(closed).toBe(true);
    await expect(inner.send({ jsonrpc: "2.0", method: "ping", id: 99 })).rejects.toThrow("Not connected");
  });
});

describe("withCallFault", () => {
  it("rejects the chosen tool's call with a generic error and lets others through", async () => {
    const transport = withCallFault(await server().connect(), { tool: "crash_tool" });
    const c = client();
    await c.connect(transport);
    await expect(c.callTool({ name: "echo", arguments: { a: 1 } })).resolves.toMatchObject({
      content: [{ type: "text", text: '{"a":1}' }],
    });
    const failure = await c.callTool({ name: "crash_tool", arguments: {} }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect(failure).not.toBeInstanceOf(McpError);
    expect((failure as Error).message).toContain("transport failed");
    expect(transport.trips).toBe(1);
  });

  it("drops the connection while the call is in flight in disconnect mode", async () => {
    const testServer = server();
    const transport = withCallFault(await testServer.connect(), {
      tool: (name) => name.startsWith("crash"),
      mode: "disconnect",
    });
    const c = client();
    const errors: Error[] = [];
    c.onerror = (error) => errors.push(error);
    await c.connect(transport);
    await expect(c.callTool({ name: "crash_tool", arguments: {} })).rejects.toMatchObject({
      code: ErrorCode.ConnectionClosed,
    });
    expect(errors.map((e) => e.message)).toContain("injected fault: transport failed during tools/call");
    expect(testServer.callCount).toBe(0);
  });
});

describe("withCallResultRewrite", () => {
  it("hands the client the rewritten result of the chosen tool only", async () => {
    const transport = withCallResultRewrite(await server().connect(), {
      tool: "crash_tool",
      rewrite: (result) => ({ toolResult: result.content }),
    });
    const c = client();
    await c.connect(transport);
    const rewritten: unknown = await c.callTool({ name: "crash_tool", arguments: { n: 1 } });
    expect(rewritten).toEqual({ content: [], toolResult: [{ type: "text", text: '{"n":1}' }] });
    const untouched: unknown = await c.callTool({ name: "echo", arguments: { n: 2 } });
    expect(untouched).toEqual({ content: [{ type: "text", text: '{"n":2}' }] });
  });
});

describe("failAfterConnects", () => {
  it("serves the first connections, then refuses", async () => {
    const testServer = server();
    const factory = failAfterConnects(() => testServer.connect(), 1);
    const first = client();
    await first.connect(await factory());
    await expect(first.listTools()).resolves.toMatchObject({ tools: [{ name: "echo" }, { name: "crash_tool" }] });
    await first.close();
    await expect(client().connect(await factory())).rejects.toMatchObject({ code: "ECONNREFUSED" });
    expect(factory.attempts).toBe(2);
  });
});

describe("startTcpRelay", () => {
  const httpServers: Server[] = [];

  async function httpServer(reply: string): Promise<number> {
    const created = createServer((_req, res) => res.end(reply));
    httpServers.push(created);
    created.listen(0, "127.0.0.1");
    await once(created, "listening");
    return (created.address() as AddressInfo).port;
  }

  afterEach(async () => {
    await Promise.all(
      httpServers.splice(0).map((s) => {
        s.closeAllConnections();
        return new Promise((resolve) => s.close(resolve));
      }),
    );
  });

  it("forwards to the target, follows a retarget, and fails once the target is gone", async () => {
    const first = await httpServer("first");
    const second = await httpServer("second");
    const relay = await startTcpRelay(first);
    try {
      const url = `http://127.0.0.1:${relay.port}/`;
      await expect(fetch(url).then((r) => r.text())).resolves.toBe("first");
      relay.retarget(second);
      expect(relay.targetPort).toBe(second);
      await expect(fetch(url).then((r) => r.text())).resolves.toBe("second");
      const last = httpServers.pop()!;
      last.closeAllConnections();
      await new Promise((resolve) => last.close(resolve));
      relay.cutConnections();
      await expect(fetch(url)).rejects.toThrow();
    } finally {
      await relay.close();
    }
  });
});
