import { inspect } from "node:util";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { McpError, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { createInMemoryTestServer, withCallFault } from "@mcp-tool-adapter/test-servers";
import { describe, expect, it } from "vitest";
import { MCPProtocolError } from "@mcp-tool-adapter/core";
import { MCPConnectionError, MCPNotConnectedError, MCPToolAdapter, type Logger } from "../src/index.js";
import { STDIO_CONFIG } from "./helpers.js";

/** An error as the stdio transport reports a server that exited (its fields, read structurally). */
function serverExited(): Error {
  return Object.assign(
    new Error(
      'MCP server "node" (pid 1) exited with code 3 while connected. Its stderr ended with:\nstarting\nfatal: API_KEY is not set',
    ),
    {
      code: "SERVER_EXITED",
      exitCode: 3,
      signal: null,
      stderrTail: "starting\nloading config\nfatal: API_KEY is not set\n",
    },
  );
}

/** A transport whose server dies while answering `initialize`: it reports why, then closes. */
class DyingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  closeReason?: Error;
  readonly #report: "onerror" | "closeReason";

  constructor(report: "onerror" | "closeReason") {
    this.#report = report;
  }

  start(): Promise<void> {
    return Promise.resolve();
  }

  send(): Promise<void> {
    setTimeout(() => {
      const reason = serverExited();
      if (this.#report === "onerror") this.onerror?.(reason);
      else this.closeReason = reason;
      this.onclose?.();
    }, 5);
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

function codedError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

async function connectError(adapter: MCPToolAdapter): Promise<MCPConnectionError> {
  const error = await adapter.connect({ timeoutMs: 5_000 }).then(
    () => new Error("connect resolved"),
    (failure: unknown) => failure,
  );
  if (!MCPConnectionError.isInstance(error)) throw new Error(`expected MCPConnectionError, got ${String(error)}`);
  return error;
}

describe("a server that dies during the handshake", () => {
  it.each(["onerror", "closeReason"] as const)(
    "the connect error names its exit code and last stderr lines (reported through %s)",
    async (report) => {
      const adapter = new MCPToolAdapter(STDIO_CONFIG, { transport: () => new DyingTransport(report), logger: {} });
      const error = await connectError(adapter);
      expect(error.message).toContain("the server exited with code 3");
      expect(error.message).toContain("loading config | fatal: API_KEY is not set");
      expect((error.cause as { code?: unknown }).code).toBe("SERVER_EXITED");
      expect(adapter.isConnected).toBe(false);
    },
  );

  it("a cause that ends with a full stop is not followed by a second one", async () => {
    const adapter = new MCPToolAdapter(STDIO_CONFIG, {
      transport: () => Promise.reject(new Error("Could not start the server. Install it.")),
    });
    const error = await connectError(adapter);
    expect(error.message).toContain("Install it. Check that the server can start");
    expect(error.message).not.toMatch(/\.\./);
  });
});

describe("results over the transport's message limit", () => {
  it("a -32050 answer (the transports' MESSAGE_TOO_LARGE) is result_too_large, and the next call works", async () => {
    const server = createInMemoryTestServer({
      tools: [
        {
          name: "huge",
          handler: () => {
            throw new McpError(
              -32050,
              "The server's response (20000000 bytes) exceeded maxMessageBytes (10485760 bytes) and was dropped",
              { reason: "MESSAGE_TOO_LARGE" },
            );
          },
        },
        { name: "echo" },
      ],
    });
    const adapter = new MCPToolAdapter(STDIO_CONFIG, { transport: () => server.connect() });
    await adapter.connect();
    const result = await adapter.invoke("huge", {});
    expect(result).toMatchObject({ success: false, errorKind: "result_too_large", data: null });
    expect(result.error).toMatch(/^result too large: .*maxMessageBytes/);
    expect((await adapter.invoke("echo", {})).success).toBe(true);
    await adapter.disconnect();
  });

  it("a send refused with MESSAGE_TOO_LARGE (an HTTP body over the limit) is result_too_large", async () => {
    const server = createInMemoryTestServer({ tools: [{ name: "huge" }] });
    const tooLarge = codedError(
      "MESSAGE_TOO_LARGE",
      "Streamable HTTP response was refused: the body exceeds maxMessageBytes (1000 bytes).",
    );
    const adapter = new MCPToolAdapter(STDIO_CONFIG, {
      transport: async () => withCallFault(await server.connect(), { tool: "huge", error: tooLarge }),
    });
    await adapter.connect();
    expect(await adapter.invoke("huge", {})).toMatchObject({ success: false, errorKind: "result_too_large" });
    expect(adapter.isConnected).toBe(true);
    await adapter.disconnect();
  });
});

describe("a send that fails because the server is gone", () => {
  it.each([
    ["WRITE_FAILED", "Could not write to MCP server (write EPIPE); the server has probably exited."],
    ["TRANSPORT_CLOSED", "Cannot send to MCP server: the transport is closed."],
    ["EPIPE", "write EPIPE"],
    ["CONNECTION_FAILED", "Streamable HTTP request failed: the server closed the connection (ECONNRESET)."],
  ])("%s is connection_lost; the adapter disconnects at once and reconnect restores service", async (code, message) => {
    const server = createInMemoryTestServer({ tools: [{ name: "doomed" }, { name: "echo" }] });
    let connects = 0;
    const adapter = new MCPToolAdapter(STDIO_CONFIG, {
      transport: async () => {
        connects += 1;
        const transport = await server.connect();
        return connects === 1
          ? withCallFault(transport, { tool: "doomed", error: codedError(code, message) })
          : transport;
      },
      logger: {},
    });
    await adapter.connect();
    const result = await adapter.invoke("doomed", {});
    expect(result).toMatchObject({ success: false, errorKind: "connection_lost", data: null });
    expect(result.error).toMatch(/^connection lost: /);
    expect(result.error).toContain(message.replace(/\.$/, ""));
    expect(adapter.isConnected).toBe(false);
    await expect(adapter.invoke("echo", {})).rejects.toSatisfy((error: unknown) =>
      MCPNotConnectedError.isInstance(error),
    );
    await adapter.reconnect();
    expect((await adapter.invoke("echo", {})).success).toBe(true);
    await adapter.disconnect();
  });

  it("a fetch that failed under the request (undici's socket closed: the SDK v2 transport's error) is connection_lost", async () => {
    const server = createInMemoryTestServer({ tools: [{ name: "doomed" }] });
    const socketClosed = Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" });
    const adapter = new MCPToolAdapter(STDIO_CONFIG, {
      transport: async () =>
        withCallFault(await server.connect(), {
          tool: "doomed",
          error: new TypeError("fetch failed", { cause: socketClosed }),
        }),
      logger: {},
    });
    await adapter.connect();
    expect(await adapter.invoke("doomed", {})).toMatchObject({ success: false, errorKind: "connection_lost" });
    await adapter.disconnect();
  });

  it("an Error that is not a fetch's stays a server error even when its cause has a socket code", async () => {
    const server = createInMemoryTestServer({ tools: [{ name: "flaky" }, { name: "echo" }] });
    const cause = Object.assign(new Error("reset"), { code: "ECONNRESET" });
    const adapter = new MCPToolAdapter(STDIO_CONFIG, {
      transport: async () =>
        withCallFault(await server.connect(), { tool: "flaky", error: new Error("upstream said no", { cause }) }),
    });
    await adapter.connect();
    expect(await adapter.invoke("flaky", {})).toMatchObject({ errorKind: "server_error" });
    expect(adapter.isConnected).toBe(true);
    await adapter.disconnect();
  });

  it("a generic Error from a send stays a server error and the connection stays up", async () => {
    const server = createInMemoryTestServer({ tools: [{ name: "flaky" }, { name: "echo" }] });
    const adapter = new MCPToolAdapter(STDIO_CONFIG, {
      transport: async () => withCallFault(await server.connect(), { tool: "flaky" }),
    });
    await adapter.connect();
    expect(await adapter.invoke("flaky", {})).toMatchObject({ errorKind: "server_error" });
    expect(adapter.isConnected).toBe(true);
    await adapter.disconnect();
  });
});

describe("credentials of an HTTP config stay out of messages", () => {
  const bearer = "sk-live-0123456789abcdef";
  const apiKey = "key-fedcba9876543210";
  const queryToken = "qt-a1b2c3d4e5";
  const config = {
    name: "secretive",
    transport: "streamable-http",
    url: `http://user:pass-word-42@127.0.0.1:1/mcp?token=${queryToken}`,
    headers: { Authorization: `Bearer ${bearer}`, "X-Api-Key": apiKey },
  } as const;
  const secrets = [bearer, apiKey, queryToken, "pass-word-42"];

  function recordingLogger(): { logger: Logger; text: () => string } {
    const lines: string[] = [];
    const record = (message: string, data?: unknown): void => {
      lines.push(`${message} ${inspect(data, { depth: 8 })}`);
    };
    return { logger: { debug: record, info: record, warn: record, error: record }, text: () => lines.join("\n") };
  }

  it("a tool error and a transport error echoing them are redacted in results and logs", async () => {
    const echo = `denied: Bearer ${bearer} key=${apiKey} url=?token=${queryToken} pass-word-42`;
    const server = createInMemoryTestServer({
      tools: [
        {
          name: "rude",
          handler: () => {
            throw new Error(echo);
          },
        },
        { name: "dropper" },
      ],
    });
    const { logger, text } = recordingLogger();
    const adapter = new MCPToolAdapter(config, {
      transport: async () =>
        withCallFault(await server.connect(), { tool: "dropper", mode: "disconnect", error: new Error(echo) }),
      logger,
    });
    await adapter.connect();
    const rude = await adapter.invoke("rude", {});
    expect(rude.error).toContain("[REDACTED]");
    const dropped = await adapter.invoke("dropper", {});
    expect(dropped.errorKind).toBe("connection_lost");
    const everything = `${rude.error ?? ""}\n${dropped.error ?? ""}\n${text()}`;
    expect(text()).toContain("[REDACTED]");
    for (const secret of secrets) expect(everything).not.toContain(secret);
  });

  it("a JSON-RPC error to initialize echoing them is redacted in the connect error and its causes", async () => {
    const echoing: Transport = {
      start: () => Promise.resolve(),
      close: () => Promise.resolve(),
      send(message) {
        if ("id" in message && "method" in message) {
          const id = message.id;
          setTimeout(
            () =>
              echoing.onmessage?.({
                jsonrpc: "2.0",
                id,
                error: { code: -32600, message: `bad token Bearer ${bearer}`, data: { apiKey } },
              }),
            1,
          );
        }
        return Promise.resolve();
      },
    };
    const error = await connectError(new MCPToolAdapter(config, { transport: echoing }));
    expect(error.message).toContain("bad token [REDACTED]");
    expect(error.cause).toBeInstanceOf(MCPProtocolError);
    const everything = `${error.message}\n${inspect(error, { depth: 8 })}`;
    for (const secret of secrets) expect(everything).not.toContain(secret);
  });
});
