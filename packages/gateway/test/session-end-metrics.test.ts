import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { listenHttp, serveStdio } from "../src/index.js";
import { meteredEverythingGateway } from "./metered-gateway.js";

// `error.type` on `mcp.server.session.duration` (OTel MCP conventions: set if and only if the
// session ended with an error). A session its client ended records none: an HTTP session's DELETE,
// stdin's end once every request was answered. `connection_lost`: stdin's end with a call still
// unanswered, or stdin failing. `server_closed`: the gateway ended it (closing a listener or a
// connection) before the client did. Real SDK 1.x clients over real HTTP and over stdio streams
// (serveStdio), server-everything upstream, the real OTel SDK's meter provider.

const metered = meteredEverythingGateway();

/** Sessions recorded so far, by `network.transport` and `error.type` ("none" when it has none). */
async function sessionsEnded(): Promise<Map<string, number>> {
  const metric = await metered.histogram("mcp.server.session.duration");
  const counts = new Map<string, number>();
  for (const point of metric?.dataPoints ?? []) {
    const errorType = point.attributes["error.type"];
    const key = `${String(point.attributes["network.transport"])} ${typeof errorType === "string" ? errorType : "none"}`;
    counts.set(key, (counts.get(key) ?? 0) + point.value.count);
  }
  return counts;
}

/** Runs `end` and waits until one more session of `transport` was recorded; resolves to its `error.type`. */
async function recordedEnd(transport: "tcp" | "pipe", end: () => Promise<void>): Promise<string> {
  const before = await sessionsEnded();
  await end();
  let grown: string[] = [];
  await expect
    .poll(async () => {
      const after = await sessionsEnded();
      grown = [...after]
        .filter(([key, count]) => key.startsWith(`${transport} `) && count > (before.get(key) ?? 0))
        .map(([key]) => key.slice(transport.length + 1));
      return grown.length;
    })
    .toBe(1);
  return grown[0]!;
}

/** A 2025 client on the gateway's stdio streams (what a host's pipe carries), and the stdin it writes. */
async function overStdio(): Promise<{
  client: Client;
  stdin: PassThrough;
  served: Awaited<ReturnType<typeof serveStdio>>;
}> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const served = await serveStdio(metered.gateway, { stdin, stdout });
  const client = new Client({ name: "session-end-stdio", version: "1" });
  await client.connect(new StdioServerTransport(stdout, stdin));
  return { client, stdin, served };
}

/** Starts a call that takes seconds; resolves once the gateway runs it (its first progress came back). */
async function callStillRunning(client: Client): Promise<void> {
  await new Promise<void>((resolve) => {
    client
      .callTool({ name: "trigger-long-running-operation", arguments: { duration: 5, steps: 5 } }, undefined, {
        onprogress: () => resolve(),
        timeout: 60_000,
      })
      .catch(() => undefined);
  });
}

describe("mcp.server.session.duration's error.type", () => {
  it("records none for an HTTP session the client ended with DELETE", async () => {
    const client = new Client({ name: "session-end-delete", version: "1" });
    const transport = new StreamableHTTPClientTransport(new URL(metered.http.url));
    await client.connect(transport);
    await client.listTools();
    expect(
      await recordedEnd("tcp", async () => {
        await transport.terminateSession();
        await client.close();
      }),
    ).toBe("none");
  });

  it("records server_closed for an HTTP session the gateway ended (its listener closed) before the client did", async () => {
    const other = await listenHttp(metered.gateway, {});
    const client = new Client({ name: "session-end-abandoned", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(other.url)));
    await client.listTools();
    expect(await recordedEnd("tcp", () => other.close())).toBe("server_closed");
    await client.close();
  });

  it("records none when stdin ends after the client's last answer", async () => {
    const { client, stdin, served } = await overStdio();
    expect((await client.callTool({ name: "echo", arguments: { message: "last" } })).isError).not.toBe(true);
    expect(
      await recordedEnd("pipe", async () => {
        stdin.end();
        await served.closed;
        // What `serve` does once stdin ended: the gateway closes.
        await served.connection.close();
      }),
    ).toBe("none");
  });

  it("records connection_lost when stdin ends with a call unanswered, or stdin fails", async () => {
    const ending = await overStdio();
    await callStillRunning(ending.client);
    expect(
      await recordedEnd("pipe", async () => {
        ending.stdin.end();
        await ending.served.closed;
        await ending.served.connection.close();
      }),
    ).toBe("connection_lost");

    const failing = await overStdio();
    await failing.client.listTools();
    expect(
      await recordedEnd("pipe", async () => {
        failing.stdin.destroy(new Error("the host's pipe broke"));
        // `serve` waits on this: it must settle when stdin fails, which never emits "end".
        await failing.served.closed;
        await failing.served.connection.close();
      }),
    ).toBe("connection_lost");
  }, 60_000);

  it("records server_closed for a stdio session the gateway ended while stdin was open", async () => {
    const { client, served } = await overStdio();
    await client.listTools();
    expect(await recordedEnd("pipe", () => served.connection.close())).toBe("server_closed");
  });
});
