import { readdirSync, readFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import {
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { everythingStdioServer } from "@mcp-tool-adapter/test-servers";
import { servedOverHttpForFile, serveOverHttp, type ServedOverHttp } from "./fixtures.js";
import { startSdkHttpUpstream, type SdkHttpUpstream } from "./sdk-http-upstream.js";

// What an upstream does on its own, seen through the gateway by an SDK 1.x Client over HTTP: its
// tool list changing, its log messages, an interceptor in the call path, and its credentials
// (bearer header) never reaching the client. The upstream is an SDK McpServer on real HTTP on
// 127.0.0.1 that refuses requests without its token; recovery uses server-everything over stdio.
const UPSTREAM_TOKEN = "upstream-secret-7f3a9c";

/** The upstream: a server with a `shout` tool per session, behind a bearer token. */
function startUpstream(): Promise<SdkHttpUpstream> {
  return startSdkHttpUpstream({
    authorization: `Bearer ${UPSTREAM_TOKEN}`,
    server: () => {
      const server = new McpServer({ name: "upstream", version: "1" }, { capabilities: { logging: {} } });
      server.registerTool(
        "shout",
        { description: "Upper-cases text", inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } },
        ({ text }) => ({ content: [{ type: "text", text: text.toUpperCase() }] }),
      );
      return server;
    },
  });
}

/** Every message the client receives from now on, whatever the SDK does with it afterwards. */
function recordReceived(transport: StreamableHTTPClientTransport): JSONRPCMessage[] {
  const received: JSONRPCMessage[] = [];
  const handle = transport.onmessage?.bind(transport);
  transport.onmessage = (message: JSONRPCMessage) => {
    received.push(message);
    handle?.(message);
  };
  return received;
}

/** Polls `check` until it holds, for at most `ms`. */
async function eventually(check: () => boolean | Promise<boolean>, ms = 20_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

describe("an upstream's own events through the gateway", () => {
  let upstream: SdkHttpUpstream;
  const intercepted: string[] = [];

  beforeAll(async () => {
    upstream = await startUpstream();
  }, 60_000);

  afterAll(async () => {
    await upstream.close();
  }, 30_000);

  // Registered after the upstream's hooks: starts after it, and (hooks after tests run in reverse) closes before it.
  const running = servedOverHttpForFile(() => ({
    servers: {
      up: { transport: "streamable-http", url: upstream.url, headers: { Authorization: `Bearer ${UPSTREAM_TOKEN}` } },
    },
    serverSet: {
      interceptors: [
        {
          name: "suffix",
          beforeCall: (call) => {
            intercepted.push(call.toolName);
            return { arguments: { ...call.arguments, text: `${String(call.arguments.text)} (checked)` } };
          },
        },
      ],
    },
  }));

  it(
    "forwards list_changed, logs and calls through an interceptor, and never shows the client the upstream's token",
    { timeout: 60_000 },
    async () => {
      const transport = new StreamableHTTPClientTransport(new URL(running.http.url));
      const client = new Client({ name: "events-test", version: "1" });
      await client.connect(transport);
      const received = recordReceived(transport);
      const changed: unknown[] = [];
      const logs: { logger?: string; data: unknown }[] = [];
      client.setNotificationHandler(ToolListChangedNotificationSchema, (notification) => {
        changed.push(notification);
      });
      client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
        logs.push(notification.params);
      });
      try {
        expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["shout"]);

        // The interceptor rewrites the arguments on the way up.
        const shouted = await client.callTool({ name: "shout", arguments: { text: "hello" } });
        expect(shouted.content).toEqual([{ type: "text", text: "HELLO (CHECKED)" }]);
        expect(intercepted).toEqual(["shout"]);

        // The upstream adds a tool: the client hears list_changed and the new listing has it.
        for (const server of upstream.servers)
          server.registerTool(
            "whisper",
            { description: "Lower-cases text", inputSchema: { text: z.string() } },
            ({ text }) => ({
              content: [{ type: "text", text: text.toLowerCase() }],
            }),
          );
        expect(await eventually(() => changed.length > 0)).toBe(true);
        expect(
          await eventually(async () => (await client.listTools()).tools.some((tool) => tool.name === "whisper")),
        ).toBe(true);

        // The upstream logs: the client gets it as the gateway's own notifications/message, named after the server.
        await Promise.all(
          upstream.servers.map((server) =>
            server
              .sendLoggingMessage({ level: "warning", logger: "disk", data: "disk almost full" })
              .catch(() => undefined),
          ),
        );
        expect(await eventually(() => logs.some((log) => log.data === "disk almost full"))).toBe(true);
        expect(logs.find((log) => log.data === "disk almost full")?.logger).toBe("up/disk");

        expect(received.length).toBeGreaterThan(4);
        expect(JSON.stringify(received)).not.toContain(UPSTREAM_TOKEN);
        expect(JSON.stringify(received)).not.toContain(upstream.url);
      } finally {
        await client.close();
      }
    },
  );
});

describe("recovery of an upstream server", () => {
  let served: ServedOverHttp | undefined;

  afterEach(async () => {
    await served?.close();
  }, 30_000);

  /** This process's child processes running server-everything (the gateway's upstream). */
  function everythingChildren(): number[] {
    const pids: number[] = [];
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        const command = readFileSync(`/proc/${entry}/cmdline`, "utf8");
        if (parent === process.pid && command.includes("server-everything")) pids.push(Number(entry));
      } catch {
        // The process ended meanwhile.
      }
    }
    return pids;
  }

  it.skipIf(process.platform !== "linux")(
    "serves calls again after the upstream process dies and the server set restarts it",
    { timeout: 90_000 },
    async () => {
      served = await serveOverHttp({
        servers: {
          everything: { transport: "stdio", ...everythingStdioServer(), env: { GATEWAY_TEST_SECRET: UPSTREAM_TOKEN } },
        },
        serverSet: { recovery: { initialDelayMs: 50, maxDelayMs: 500 } },
      });
      const client = new Client({ name: "recovery-test", version: "1" });
      const transport = new StreamableHTTPClientTransport(new URL(served.http.url));
      await client.connect(transport);
      const received = recordReceived(transport);
      try {
        const before = await client.callTool({ name: "echo", arguments: { message: "before" } });
        expect(JSON.stringify(before.content)).toContain("before");
        const [pid] = everythingChildren();
        expect(pid).toBeDefined();
        process.kill(pid!, "SIGKILL");
        const back = await eventually(async () => {
          const result = await client.callTool({ name: "echo", arguments: { message: "after" } });
          return result.isError !== true && JSON.stringify(result.content).includes("after");
        }, 60_000);
        expect(back).toBe(true);
        expect(everythingChildren()).not.toContain(pid);
        // The upstream's environment (its credentials, in real configs) never reaches the client.
        await client.listTools();
        expect(received.length).toBeGreaterThan(2);
        expect(JSON.stringify(received)).not.toContain(UPSTREAM_TOKEN);
      } finally {
        await client.close();
      }
    },
  );
});
