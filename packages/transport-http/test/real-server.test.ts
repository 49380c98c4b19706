import {
  expectNoLeakedProcesses,
  startEverythingHttp,
  type EverythingHttpServer,
} from "@mcp-tool-adapter/test-servers";
import { getEventListeners } from "node:events";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Agent, fetch as undiciFetch, type RequestInit as UndiciRequestInit } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSseTransport, createStreamableHttpTransport, HttpTransportError } from "../src/index.js";
import { connectClient, newClient, recordingLogger, rejectionOf, waitFor } from "./helpers.js";

let streamable: EverythingHttpServer;
let sse: EverythingHttpServer;

beforeAll(async () => {
  [streamable, sse] = await Promise.all([
    startEverythingHttp({ mode: "streamableHttp" }),
    startEverythingHttp({ mode: "sse" }),
  ]);
});

afterAll(async () => {
  await Promise.all([streamable.stop(), sse.stop()]);
  await expectNoLeakedProcesses();
});

function textOf(result: unknown): string {
  const content = (result as CallToolResult).content;
  return content.map((item) => (item.type === "text" ? item.text : "")).join("");
}

describe.each([
  {
    name: "streamable-http",
    create: () => createStreamableHttpTransport({ url: streamable.url, headers: { "X-Test": "yes-1" } }),
  },
  { name: "sse", create: () => createSseTransport({ url: sse.url, headers: { "X-Test": "yes-1" } }) },
])("server-everything over $name", ({ create }) => {
  it("initializes, lists tools and calls echo through an SDK Client", async () => {
    const client = await connectClient(create());
    try {
      expect(client.getServerVersion()?.name).toBeTruthy();
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("echo");
      const result = await client.callTool({ name: "echo", arguments: { message: "hello over http" } });
      expect(textOf(result)).toContain("hello over http");
    } finally {
      await client.close();
    }
  });

  it("reports onclose once when closed", async () => {
    const transport = create();
    let closes = 0;
    const client = await connectClient(transport);
    client.onclose = () => (closes += 1);
    await client.close();
    expect(closes).toBe(1);
  });
});

describe("fallback to SSE", () => {
  it("falls back when the streamable POST is answered 4xx by a real SSE server", async () => {
    const logger = recordingLogger();
    const transport = createStreamableHttpTransport({ url: sse.url }, { fallbackToSse: true, logger });
    const errors: Error[] = [];
    const client = newClient();
    client.onerror = (error) => errors.push(error);
    await client.connect(transport);
    try {
      expect((transport as unknown as { transportType: string }).transportType).toBe("sse");
      const result = await client.callTool({ name: "echo", arguments: { message: "after fallback" } });
      expect(textOf(result)).toContain("after fallback");
      expect(errors).toEqual([]);
      expect(logger.lines.some((line) => line.level === "info" && line.message.includes("falling back to SSE"))).toBe(
        true,
      );
    } finally {
      await client.close();
    }
  });

  it("stays on streamable HTTP when the server speaks it", async () => {
    const transport = createStreamableHttpTransport({ url: streamable.url }, { fallbackToSse: true });
    const client = await connectClient(transport);
    try {
      expect((transport as unknown as { transportType: string }).transportType).toBe("streamable-http");
      expect(textOf(await client.callTool({ name: "echo", arguments: { message: "direct" } }))).toContain("direct");
    } finally {
      await client.close();
    }
  });
});

describe("load", () => {
  it("serves 100 concurrent echo calls without piling abort listeners on one signal or MaxListenersExceededWarning", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on("warning", onWarning);
    // The SDK hands one long-lived signal to every fetch and undici leaves a listener on it per
    // request until GC (warning past 1500). Watch the signals that reach fetch: each must carry
    // only its own request's listener, however many requests are in flight.
    let mostListeners = 0;
    // A new connection per request: the first round opens a hundred, and on a loaded machine the
    // server (Node's 5 s keep-alive timeout) can close an idle one just as the client reuses it.
    // That race ("other side closed") is the network's, not what this test is about.
    const agent = new Agent({ pipelining: 0 });
    const observingFetch = (async (input: string | URL, init?: RequestInit) => {
      const pending = undiciFetch(input, { ...(init as UndiciRequestInit), dispatcher: agent });
      if (init?.signal) mostListeners = Math.max(mostListeners, getEventListeners(init.signal, "abort").length);
      return pending;
    }) as unknown as typeof fetch;
    const client = await connectClient(
      createStreamableHttpTransport({ url: streamable.url }, { fetch: observingFetch }),
    );
    try {
      for (let round = 0; round < 3; round++) {
        const results = await Promise.all(
          Array.from({ length: 100 }, (_, i) =>
            client.callTool({ name: "echo", arguments: { message: `r${round}-${i}` } }),
          ),
        );
        expect(results.map(textOf)).toEqual(
          Array.from({ length: 100 }, (_, i) => expect.stringContaining(`r${round}-${i}`) as string),
        );
      }
      await new Promise((resolve) => setImmediate(resolve));
      expect(mostListeners).toBeGreaterThan(0);
      expect(mostListeners).toBeLessThanOrEqual(2);
      expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      process.off("warning", onWarning);
      await client.close();
      await agent.close();
    }
  });
});

describe("maxMessageBytes", () => {
  it("fails a streamable call whose event is too large, promptly, and keeps the session usable", async () => {
    const transport = createStreamableHttpTransport({ url: streamable.url }, { maxMessageBytes: 20_000 });
    const reported: Error[] = [];
    const client = await connectClient(transport);
    client.onerror = (error) => reported.push(error);
    try {
      const error = await rejectionOf(
        client.callTool({ name: "echo", arguments: { message: "x".repeat(30_000) } }, undefined, { timeout: 30_000 }),
      );
      expect((error as Error).message).toContain("exceeds maxMessageBytes (20000 bytes)");
      expect(reported.some((e) => HttpTransportError.isInstance(e) && e.code === "MESSAGE_TOO_LARGE")).toBe(true);
      expect(textOf(await client.callTool({ name: "echo", arguments: { message: "small" } }))).toContain("small");
    } finally {
      await client.close();
    }
  });

  it("closes a legacy SSE transport whose event stream carries a too-large event", async () => {
    const transport = createSseTransport({ url: sse.url }, { maxMessageBytes: 20_000 });
    const reported: Error[] = [];
    const client = await connectClient(transport);
    let closed = false;
    client.onclose = () => (closed = true);
    client.onerror = (error) => reported.push(error);
    const error = await rejectionOf(
      client.callTool({ name: "echo", arguments: { message: "y".repeat(30_000) } }, undefined, { timeout: 30_000 }),
    );
    expect((error as Error).message).toMatch(/Connection closed/i);
    await waitFor(() => closed);
    const tooLarge = reported.find((e) => HttpTransportError.isInstance(e) && e.code === "MESSAGE_TOO_LARGE");
    expect(tooLarge?.message).toContain("exceeds maxMessageBytes");
    await client.close();
  });
});
