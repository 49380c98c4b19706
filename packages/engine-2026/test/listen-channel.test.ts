import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startV2HttpServer, type V2HttpServer } from "@mcp-tool-adapter/test-servers";
import { afterEach, describe, expect, it } from "vitest";
import type { Engine2026Error } from "../src/errors.js";
import { ListenChannel } from "../src/listen-channel.js";

// The channel's bounded retries, against a real modern-only v2 server that goes away for good:
// short injected delays stand in for the production ones (0.1 s up to 10 s).
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function connectedClient(): Promise<{ server: V2HttpServer; client: Client; stopServer: () => Promise<void> }> {
  const server = await startV2HttpServer({ modernOnly: true });
  let serverClosed = false;
  const stopServer = async (): Promise<void> => {
    if (serverClosed) return;
    serverClosed = true;
    await server.close();
  };
  cleanups.push(stopServer);
  const client = new Client(
    { name: "listen-channel-test", version: "0.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  cleanups.push(() => client.close());
  return { server, client, stopServer };
}

function channelOn(client: Client, delaysMs: readonly number[]) {
  const gaveUp: Engine2026Error[] = [];
  let resubscribed = 0;
  const channel = new ListenChannel({
    client,
    filter: { notifications: { toolsListChanged: true } } as never,
    timeoutMs: 5_000,
    now: () => Date.now(),
    delaysMs,
    onResubscribed: () => {
      resubscribed += 1;
    },
    onGaveUp: (error) => {
      gaveUp.push(error);
    },
  });
  cleanups.push(() => channel.close());
  return { channel, gaveUp, resubscribed: () => resubscribed };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("ListenChannel", () => {
  it("gives up after its last attempt to listen again and reports why, once", async () => {
    const { client, stopServer } = await connectedClient();
    const { channel, gaveUp, resubscribed } = channelOn(client, [10, 10, 10]);
    await channel.open(AbortSignal.timeout(10_000));

    await stopServer();
    await until(() => gaveUp.length > 0, "the channel to give up");
    expect(gaveUp).toHaveLength(1);
    expect(gaveUp[0]).toMatchObject({ code: "SDK_ERROR" });
    expect(gaveUp[0]?.message).toMatch(/listening again failed 3 times/);
    expect(gaveUp[0]?.message).toMatch(/list changes are not followed until the next connect/);
    expect(resubscribed()).toBe(0);
  });

  it("makes no attempt once closed while it waits to listen again", async () => {
    const { server, client } = await connectedClient();
    const { channel, gaveUp, resubscribed } = channelOn(client, [200]);
    await channel.open(AbortSignal.timeout(10_000));
    const listens = (): number => server.methods.filter((method) => method === "subscriptions/listen").length;
    expect(listens()).toBe(1);

    await server.endListenStreams();
    // Closed within the 200 ms wait (or before the end was seen): either way no attempt may follow,
    // however long after the wait would have run out.
    await channel.close();
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(listens()).toBe(1);
    expect(gaveUp).toEqual([]);
    expect(resubscribed()).toBe(0);
  });
});
