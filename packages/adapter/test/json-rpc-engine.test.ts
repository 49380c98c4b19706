// The low-level SDK Server is what lets a test send requests and raw messages of its own choosing.
/* eslint-disable @typescript-eslint/no-deprecated */
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { DEFAULT_REQUEST_TIMEOUT_MSEC } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  CallToolRequestSchema,
  ElicitResultSchema,
  ErrorCode,
  LATEST_PROTOCOL_VERSION,
  ListRootsResultSchema,
  McpError,
  type JSONRPCMessage,
} from "@modelcontextprotocol/sdk/types.js";
import {
  MCPProtocolError,
  type MCPEngineConnection,
  type MCPEngineMessage,
  type MCPEngineRequestHandler,
} from "@mcp-tool-adapter/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { JsonRpcEngine } from "../src/engine/json-rpc-engine.js";

interface Heard {
  notifications: MCPEngineMessage[];
  errors: Error[];
  closed: number;
}

/** A tool whose answer the test releases (and which may report progress first). */
class Gate {
  #open: (() => void) | undefined;
  readonly reached: Promise<void>;
  #reach!: () => void;
  constructor() {
    this.reached = new Promise((resolve) => {
      this.#reach = resolve;
    });
  }
  wait(): Promise<void> {
    this.#reach();
    return new Promise((resolve) => {
      this.#open = resolve;
    });
  }
  open(): void {
    this.#open?.();
  }
}

interface Setup {
  server: Server;
  serverSide: InMemoryTransport;
  clientSide: InMemoryTransport;
  connection: MCPEngineConnection;
  heard: Heard;
  /** The server's view of each `notifications/cancelled` it got. */
  cancelled: unknown[];
}

const opened: MCPEngineConnection[] = [];

afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  await Promise.all(opened.splice(0).map((connection) => connection.close()));
});

async function connect(
  options: {
    handlers?: Record<string, MCPEngineRequestHandler>;
    capabilities?: Record<string, unknown>;
    tool?: (args: Record<string, unknown>, extra: { sendProgress(progress: number): Promise<void> }) => unknown;
  } = {},
): Promise<Setup> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = new Server(
    { name: "in-process", version: "1.2.3" },
    { capabilities: { tools: { listChanged: true }, logging: {} }, instructions: "be kind" },
  );
  const cancelled: unknown[] = [];
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    extra.signal.addEventListener("abort", () => cancelled.push(extra.signal.reason));
    const token = request.params._meta?.progressToken;
    const content = await options.tool?.(request.params.arguments ?? {}, {
      sendProgress: (progress) =>
        token === undefined
          ? Promise.resolve()
          : extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress } }),
    });
    return { content: [{ type: "text", text: JSON.stringify(content ?? request.params.arguments ?? {}) }] };
  });
  await server.connect(serverSide);
  const heard: Heard = { notifications: [], errors: [], closed: 0 };
  const engine = new JsonRpcEngine({ transport: clientSide, closeTimeoutMs: 5_000 });
  const connection = await engine.connect({
    server: { name: "mem", transport: "stdio" },
    clientInfo: { name: "engine-test", version: "0.0.1" },
    capabilities: options.capabilities ?? {},
    requestHandlers: options.handlers ?? {},
    listeners: {
      notification: (message) => heard.notifications.push(message),
      closed: () => {
        heard.closed += 1;
      },
      error: (error) => heard.errors.push(error),
    },
    timeoutMs: 30_000,
    signal: new AbortController().signal,
  });
  opened.push(connection);
  return { server, serverSide, clientSide, connection, heard, cancelled };
}

/**
 * Fakes the clocks the engine reads; call it before connect(). The handshake arms the session's
 * one deadline timer, and had that been on the real clock, a request due after it would wait for
 * it in real time.
 */
function useFakeClock(): void {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
}

/** Lets the in-memory transport deliver what is queued (it delivers on microtasks). */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("the JSON-RPC engine's handshake", () => {
  it("offers SDK 1.x's latest revision, learns the server, and sends notifications/initialized", async () => {
    const initialized = vi.fn();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = new Server({ name: "in-process", version: "1.2.3" }, { capabilities: { tools: {} } });
    server.oninitialized = initialized;
    await server.connect(serverSide);
    const versions: string[] = [];
    (clientSide as { setProtocolVersion?: (version: string) => void }).setProtocolVersion = (version) => {
      versions.push(version);
    };
    const connection = await new JsonRpcEngine({ transport: () => clientSide, closeTimeoutMs: 5_000 }).connect({
      server: { name: "mem", transport: "stdio" },
      clientInfo: { name: "engine-test", version: "0.0.1" },
      capabilities: { roots: { listChanged: true } },
      requestHandlers: {},
      listeners: { notification: () => undefined, closed: () => undefined, error: () => undefined },
      timeoutMs: 30_000,
      signal: new AbortController().signal,
    });
    opened.push(connection);
    expect(connection.era).toBe("2025");
    expect(connection.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    expect(versions).toEqual([LATEST_PROTOCOL_VERSION]);
    expect(connection.serverInfo).toEqual({ name: "in-process", version: "1.2.3" });
    expect(connection.serverCapabilities).toEqual({ tools: {} });
    expect(server.getClientVersion()).toEqual({ name: "engine-test", version: "0.0.1" });
    expect(server.getClientCapabilities()).toEqual({ roots: { listChanged: true } });
    await settle();
    expect(initialized).toHaveBeenCalledTimes(1);
  });

  it("refuses a server that answers with a revision SDK 1.x does not support, and closes", async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const serverClosed = vi.fn();
    serverSide.onclose = serverClosed;
    serverSide.onmessage = (message: JSONRPCMessage) => {
      if ("id" in message && "method" in message) {
        void serverSide.send({
          jsonrpc: "2.0",
          id: message.id,
          result: { protocolVersion: "1999-01-01", capabilities: {}, serverInfo: { name: "old", version: "1" } },
        });
      }
    };
    await serverSide.start();
    const failure = await rejection(
      new JsonRpcEngine({ transport: clientSide, closeTimeoutMs: 5_000 }).connect({
        server: { name: "mem", transport: "stdio" },
        clientInfo: { name: "engine-test", version: "0.0.1" },
        capabilities: {},
        requestHandlers: {},
        listeners: { notification: () => undefined, closed: () => undefined, error: () => undefined },
        timeoutMs: 30_000,
        signal: new AbortController().signal,
      }),
    );
    expect(String(failure)).toContain("protocol version is not supported: 1999-01-01");
    expect(serverClosed).toHaveBeenCalled();
  });
});

describe("the JSON-RPC engine's requests", () => {
  it("matches each response to its request, many in flight", async () => {
    const { connection } = await connect();
    const answers = await Promise.all(
      [1, 2, 3].map((n) => connection.request({ method: "tools/call", params: { name: "t", arguments: { n } } })),
    );
    expect(answers).toEqual([1, 2, 3].map((n) => ({ content: [{ type: "text", text: JSON.stringify({ n }) }] })));
  });

  it("requests written together (one send promise for all) are answered, or fail together when that write fails", async () => {
    const { connection, clientSide } = await connect();
    const send = clientSide.send.bind(clientSide);
    const call = (n: number) => connection.request({ method: "tools/call", params: { name: "t", arguments: { n } } });
    // A batching transport: every message of the batch gets the one promise of its write.
    let written!: () => void;
    const batch = new Promise<void>((resolve) => {
      written = resolve;
    });
    clientSide.send = (message) => {
      void send(message);
      return batch;
    };
    const answered = [1, 2, 3].map(call);
    written();
    expect(await Promise.all(answered)).toEqual(
      [1, 2, 3].map((n) => ({ content: [{ type: "text", text: JSON.stringify({ n }) }] })),
    );

    let fail!: (error: Error) => void;
    const failedBatch = new Promise<void>((_resolve, reject) => {
      fail = reject;
    });
    clientSide.send = () => failedBatch;
    const failed = [4, 5, 6].map(call);
    fail(new Error("the write failed"));
    for (const request of failed) await expect(request).rejects.toThrow("the write failed");

    clientSide.send = send;
    await expect(call(7)).resolves.toEqual({ content: [{ type: "text", text: JSON.stringify({ n: 7 }) }] });
  });

  it("rejects with the server's JSON-RPC error as core's MCPProtocolError, code and data kept", async () => {
    const { connection } = await connect({
      tool: () => {
        throw new McpError(ErrorCode.InvalidParams, "bad n", { n: 1 });
      },
    });
    const failure = await rejection(connection.request({ method: "tools/call", params: { name: "t" } }));
    expect(failure).toBeInstanceOf(MCPProtocolError);
    expect(failure).toMatchObject({ rpcCode: ErrorCode.InvalidParams, data: { n: 1 } });
    expect((failure as Error).message).toContain("bad n");
  });

  it("reports a response with an unknown id through the error listener and keeps working", async () => {
    const { connection, serverSide, heard } = await connect();
    await serverSide.send({ jsonrpc: "2.0", id: 9_999, result: {} });
    await settle();
    expect(heard.errors.map((error) => error.message)).toEqual([
      expect.stringContaining("Received a response for an unknown message ID"),
    ]);
    await expect(connection.request({ method: "tools/call", params: { name: "t" } })).resolves.toBeDefined();
  });

  it("reports malformed JSON-RPC through the error listener without failing the connection", async () => {
    const { connection, serverSide, heard } = await connect();
    const malformed = [
      { jsonrpc: "1.0", id: 1, result: {} },
      { jsonrpc: "2.0", id: 1, result: {}, extra: true },
      { jsonrpc: "2.0", id: 1.5, result: {} },
      { jsonrpc: "2.0", id: 1, error: { code: "x", message: "m" } },
      { jsonrpc: "2.0", method: 7 },
      { jsonrpc: "2.0", method: "notifications/message", params: [1] },
    ];
    for (const message of malformed) await serverSide.send(message as unknown as JSONRPCMessage);
    await settle();
    expect(heard.errors).toHaveLength(malformed.length);
    for (const error of heard.errors) expect(error.message).toMatch(/^Unknown message type: /u);
    await expect(connection.request({ method: "tools/call", params: { name: "t" } })).resolves.toBeDefined();
  });

  it("an aborted request rejects with the abort's reason and the server is told (notifications/cancelled)", async () => {
    const gate = new Gate();
    const { connection, cancelled } = await connect({ tool: () => gate.wait() });
    const controller = new AbortController();
    const call = connection.request({ method: "tools/call", params: { name: "t" } }, { signal: controller.signal });
    await gate.reached;
    controller.abort(new McpError(ErrorCode.RequestTimeout, "gave up"));
    const failure = await rejection(call);
    expect(failure).toBeInstanceOf(McpError);
    expect((failure as Error).message).toContain("gave up");
    await settle();
    expect(cancelled).toHaveLength(1);
    expect(String(cancelled[0])).toContain("gave up");
    gate.open();
  });

  it("an already aborted signal rejects before anything is sent", async () => {
    const { connection, cancelled } = await connect();
    const reason = new Error("already");
    const failure = await rejection(
      connection.request({ method: "tools/call", params: { name: "t" } }, { signal: AbortSignal.abort(reason) }),
    );
    expect(failure).toBe(reason);
    expect(cancelled).toEqual([]);
  });

  it("a request past its timeout rejects with RequestTimeout and is cancelled on the server", async () => {
    const gate = new Gate();
    useFakeClock();
    const { connection, cancelled } = await connect({ tool: () => gate.wait() });
    const call = rejection(connection.request({ method: "tools/call", params: { name: "t" } }, { timeout: 1_000 }));
    await gate.reached;
    await vi.advanceTimersByTimeAsync(1_001);
    const failure = await call;
    expect(failure).toMatchObject({ rpcCode: ErrorCode.RequestTimeout, data: { timeout: 1_000 } });
    await settle();
    expect(cancelled).toHaveLength(1);
    gate.open();
  });

  it("a request given no timeout times out after SDK 1.x's default", async () => {
    const gate = new Gate();
    useFakeClock();
    const { connection } = await connect({ tool: () => gate.wait() });
    let settled = false;
    const call = rejection(connection.request({ method: "tools/call", params: { name: "t" } })).finally(() => {
      settled = true;
    });
    await gate.reached;
    await vi.advanceTimersByTimeAsync(DEFAULT_REQUEST_TIMEOUT_MSEC - 1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(true);
    expect(await call).toMatchObject({
      rpcCode: ErrorCode.RequestTimeout,
      data: { timeout: DEFAULT_REQUEST_TIMEOUT_MSEC },
    });
    gate.open();
  });

  it("requests in flight hold the process open with one timer, and answered ones no longer do", async () => {
    const timers: ReturnType<typeof setTimeout>[] = [];
    const realSetTimeout = globalThis.setTimeout;
    vi.spyOn(globalThis, "setTimeout").mockImplementation((...args: Parameters<typeof setTimeout>) => {
      const timer = realSetTimeout(...args);
      timers.push(timer);
      return timer;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let arrived = 0;
    const { connection } = await connect({
      tool: async () => {
        arrived += 1;
        await released;
      },
    });
    const calls = [1, 2, 3].map((n) =>
      connection.request({ method: "tools/call", params: { name: "t", arguments: { n } } }),
    );
    await vi.waitFor(() => {
      expect(arrived).toBe(3);
    });
    // The handshake's request and the three calls share one timer, armed for the earliest deadline.
    expect(timers).toHaveLength(1);
    expect(timers[0]!.hasRef()).toBe(true);
    release();
    await Promise.all(calls);
    expect(timers[0]!.hasRef()).toBe(false);
  });

  describe("progress", () => {
    async function slowCallWithProgress(options: { resetTimeoutOnProgress?: boolean; maxTotalTimeout?: number }) {
      const gate = new Gate();
      const progressGate = new Gate();
      useFakeClock();
      const { connection } = await connect({
        tool: async (_args, extra) => {
          await progressGate.wait();
          await extra.sendProgress(1);
          await gate.wait();
          return "done";
        },
      });
      const progress: unknown[] = [];
      const call = connection.request(
        { method: "tools/call", params: { name: "t" } },
        { timeout: 1_000, onprogress: (report) => progress.push(report), ...options },
      );
      const outcome = call.then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      );
      await progressGate.reached;
      await vi.advanceTimersByTimeAsync(800);
      progressGate.open();
      await gate.reached;
      await vi.advanceTimersByTimeAsync(800);
      gate.open();
      await vi.advanceTimersByTimeAsync(0);
      return { outcome: await outcome, progress };
    }

    it("each report reaches onprogress, and restarts the timeout when asked", async () => {
      const { outcome, progress } = await slowCallWithProgress({ resetTimeoutOnProgress: true });
      expect(progress).toEqual([{ progress: 1 }]);
      expect(outcome).toEqual({ value: { content: [{ type: "text", text: '"done"' }] } });
    });

    it("without resetTimeoutOnProgress the timeout still counts from the start", async () => {
      const { outcome } = await slowCallWithProgress({});
      expect(outcome).toMatchObject({ error: { rpcCode: ErrorCode.RequestTimeout } });
    });

    it("maxTotalTimeout bounds the request however often progress restarts the timeout", async () => {
      const gate = new Gate();
      useFakeClock();
      const { connection } = await connect({
        tool: async (_args, extra) => {
          await gate.wait();
          await extra.sendProgress(1);
          return "late";
        },
      });
      const call = rejection(
        connection.request(
          { method: "tools/call", params: { name: "t" } },
          { timeout: 1_000, resetTimeoutOnProgress: true, maxTotalTimeout: 500, onprogress: () => undefined },
        ),
      );
      await gate.reached;
      await vi.advanceTimersByTimeAsync(600);
      gate.open();
      const failure = await call;
      expect(failure).toMatchObject({ rpcCode: ErrorCode.RequestTimeout, data: { maxTotalTimeout: 500 } });
      expect((failure as Error).message).toContain("Maximum total timeout exceeded");
    });
  });

  it("abandonRequests rejects every request in flight at once with the host's error, and drops their late answers", async () => {
    const gate = new Gate();
    const { connection, heard } = await connect({ tool: () => gate.wait() });
    const calls = [1, 2].map((n) =>
      rejection(connection.request({ method: "tools/call", params: { name: "t", arguments: { n } } })),
    );
    await gate.reached;
    const abandoned = new Error("the host gave up");
    connection.abandonRequests?.(abandoned);
    expect(await Promise.all(calls)).toEqual([abandoned, abandoned]);
    gate.open();
    await settle();
    expect(heard.errors).toEqual([]);
    expect(await connection.request({ method: "ping" })).toEqual({});
  });

  it("closing with requests pending rejects every one with ConnectionClosed, tells the host once, and refuses more", async () => {
    const gate = new Gate();
    const { connection, heard } = await connect({ tool: () => gate.wait() });
    const calls = [1, 2, 3].map((n) =>
      rejection(connection.request({ method: "tools/call", params: { name: "t", arguments: { n } } })),
    );
    await gate.reached;
    await connection.close();
    for (const failure of await Promise.all(calls)) {
      expect(failure).toBeInstanceOf(MCPProtocolError);
      expect(failure).toMatchObject({ rpcCode: ErrorCode.ConnectionClosed });
    }
    expect(heard.closed).toBe(1);
    expect(String(await rejection(connection.request({ method: "ping" })))).toContain("Not connected");
    await expect(connection.notify({ method: "notifications/roots/list_changed" })).rejects.toThrow("Not connected");
    gate.open();
  });
});

describe("the JSON-RPC engine's server-to-client requests", () => {
  it("answers ping, and roots/list through the host's handler", async () => {
    const { server } = await connect({
      capabilities: { roots: { listChanged: true } },
      handlers: { "roots/list": () => ({ roots: [{ uri: "file:///tmp", name: "tmp" }] }) },
    });
    await expect(server.ping()).resolves.toEqual({});
    await expect(server.listRoots()).resolves.toEqual({ roots: [{ uri: "file:///tmp", name: "tmp" }] });
  });

  it("answers a method it has no handler for with MethodNotFound", async () => {
    const { server } = await connect();
    const failure = await rejection(server.request({ method: "roots/list" }, ListRootsResultSchema));
    expect(failure).toMatchObject({ code: ErrorCode.MethodNotFound });
  });

  it("turns a handler's MCPProtocolError into that JSON-RPC error, and a malformed answer into InvalidParams", async () => {
    let answer: () => unknown = () => {
      throw new MCPProtocolError(-32042, "declined by policy", { data: { why: "policy" } });
    };
    const { server } = await connect({
      capabilities: { elicitation: { form: {}, url: {} } },
      handlers: { "elicitation/create": () => answer() },
    });
    const elicit = () =>
      server.request(
        {
          method: "elicitation/create",
          params: { message: "name?", requestedSchema: { type: "object", properties: {} } },
        },
        ElicitResultSchema,
      );
    expect(await rejection(elicit())).toMatchObject({ code: -32042, data: { why: "policy" } });
    answer = () => ({ action: "maybe" });
    const invalid = await rejection(elicit());
    expect(invalid).toMatchObject({ code: ErrorCode.InvalidParams });
    expect((invalid as Error).message).toContain("Invalid elicitation result");
    answer = () => ({ action: "decline" });
    await expect(elicit()).resolves.toEqual({ action: "decline" });
  });

  it("a request the server cancels aborts the handler's signal and gets no answer", async () => {
    let handlerSignal: AbortSignal | undefined;
    const gate = new Gate();
    const { server } = await connect({
      capabilities: { roots: {} },
      handlers: {
        "roots/list": async (_params, context) => {
          handlerSignal = context.signal;
          await gate.wait();
          return { roots: [] };
        },
      },
    });
    const controller = new AbortController();
    const asked = rejection(server.listRoots(undefined, { signal: controller.signal }));
    await gate.reached;
    controller.abort("server gave up");
    await asked;
    await settle();
    expect(handlerSignal?.aborted).toBe(true);
    expect(handlerSignal?.reason).toBe("server gave up");
    gate.open();
  });
});

describe("the JSON-RPC engine's notifications", () => {
  it("routes the server's notifications to the listener, reports invalid ones, and ignores unknown ones", async () => {
    const { server, serverSide, heard } = await connect();
    await server.sendToolListChanged();
    await server.sendLoggingMessage({ level: "info", data: "hello" });
    await serverSide.send({ jsonrpc: "2.0", method: "notifications/message", params: { data: "no level" } });
    await serverSide.send({ jsonrpc: "2.0", method: "notifications/unheard-of" });
    await settle();
    expect(heard.notifications).toEqual([
      { method: "notifications/tools/list_changed" },
      { method: "notifications/message", params: { level: "info", data: "hello" } },
    ]);
    expect(heard.errors.map((error) => error.message)).toEqual([
      expect.stringContaining("Invalid notifications/message notification"),
    ]);
  });

  it("reports progress for a token it never issued", async () => {
    const { serverSide, heard } = await connect();
    await serverSide.send({
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: 77, progress: 1 },
    });
    await settle();
    expect(heard.errors.map((error) => error.message)).toEqual([
      expect.stringContaining("progress notification for an unknown token"),
    ]);
  });
});
