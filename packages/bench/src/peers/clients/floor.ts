import { spawn, type ChildProcess } from "node:child_process";
import {
  failedCall,
  sdkHttpUrl,
  sdkStdioOptions,
  type LoadPeerClient,
  type PeerClient,
  type PeerTarget,
} from "../peer-client.js";

/**
 * The floor (issue 36): the least a Node client can do for one MCP call, written for the bench
 * and nothing else. Over stdio, newline-delimited JSON over the pipe and one map of pending ids;
 * over HTTP, one `fetch` per call. No validation of anything the server sends, no error
 * classification, no timeouts, no reconnects: what it costs is the physical limit our features
 * sit on. It still checks that each call succeeded, so a broken floor cannot look fast.
 */
const LABEL = "floor";
/**
 * The revision every other side negotiates with server-everything (the SDK Client's latest, ours;
 * the AI SDK offers 2026-07-28 and the server answers with this one). The floor must speak it too:
 * at 2025-11-25 server-everything's streamable HTTP answers each POST with a priming event and
 * keeps its events for resumption, which at 2025-06-18 it does not: a floor on an older revision
 * measures a server that does less per call (docs/performance.md has the figures).
 */
const PROTOCOL_VERSION = "2025-11-25";
const CLIENT_INFO = { name: "bench-floor", version: "0.0.0" };

interface JsonRpcAnswer {
  readonly id?: number;
  readonly result?: Record<string, unknown>;
  readonly error?: { message?: string };
}

/** Sends one request and resolves with its `result`; how depends on the transport. */
type Send = (method: string, params: Record<string, unknown>) => Promise<Record<string, unknown>>;

interface Connection {
  readonly send: Send;
  notify(method: string): Promise<void>;
  close(): Promise<void>;
}

export const loadFloorClient: LoadPeerClient = (transport) => {
  const open = transport === "stdio" ? openStdio : openHttp;
  return Promise.resolve((target) => floorClient(() => open(target)));
};

function floorClient(open: () => Connection): PeerClient {
  let connection: Connection | undefined;
  const connected = (): Connection => {
    if (connection === undefined) throw new Error(`${LABEL}: connect() first`);
    return connection;
  };
  return {
    async connect() {
      const next = open();
      await next.send("initialize", { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO });
      await next.notify("notifications/initialized");
      connection = next;
    },
    async call(tool, args) {
      const result = await connected().send("tools/call", { name: tool, arguments: args });
      if (result.isError === true) throw failedCall(LABEL, tool, "error result");
    },
    async listAll() {
      let count = 0;
      let cursor: unknown;
      do {
        const page = await connected().send("tools/list", cursor === undefined ? {} : { cursor });
        count += (page.tools as unknown[]).length;
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      return count;
    },
    async close() {
      await connection?.close();
      connection = undefined;
    },
  };
}

function answerOf(message: JsonRpcAnswer, method: string): Record<string, unknown> {
  if (message.error !== undefined) throw new Error(`${LABEL}: ${method} failed: ${message.error.message ?? "error"}`);
  return message.result ?? {};
}

function openStdio(target: PeerTarget): Connection {
  const options = sdkStdioOptions(LABEL, target);
  const child: ChildProcess = spawn(options.command, options.args, {
    stdio: ["pipe", "pipe", "ignore"],
    ...(options.env === undefined ? {} : { env: options.env }),
  });
  const pending = new Map<number, { resolve: (message: JsonRpcAnswer) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let buffered = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    buffered += chunk;
    let end = buffered.indexOf("\n");
    while (end !== -1) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      end = buffered.indexOf("\n");
      const message = JSON.parse(line) as JsonRpcAnswer;
      if (message.id === undefined) continue;
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      waiting?.resolve(message);
    }
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.once("exit", () => {
    for (const waiting of pending.values()) waiting.reject(new Error(`${LABEL}: the server exited`));
    pending.clear();
  });
  const write = (message: Record<string, unknown>): void => {
    child.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
  };
  return {
    send: (method, params) =>
      new Promise<JsonRpcAnswer>((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        write({ id, method, params });
      }).then((message) => answerOf(message, method)),
    notify(method) {
      write({ method });
      return Promise.resolve();
    },
    async close() {
      child.stdin!.end();
      child.kill();
      await exited;
    },
  };
}

function openHttp(target: PeerTarget): Connection {
  const url = sdkHttpUrl(LABEL, target);
  let nextId = 1;
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  const post = async (body: Record<string, unknown>): Promise<Response> => {
    const response = await fetch(url, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", ...body }),
    });
    if (!response.ok && response.status !== 202) {
      throw new Error(`${LABEL}: HTTP ${response.status} for ${String(body.method)}`);
    }
    return response;
  };
  return {
    async send(method, params) {
      const id = nextId++;
      const response = await post({ id, method, params });
      const session = response.headers.get("mcp-session-id");
      if (session !== null) headers["mcp-session-id"] = session;
      const text = await response.text();
      // A JSON body, or an event stream whose data line carries the answer.
      const json = response.headers.get("content-type")?.includes("text/event-stream") ? sseAnswer(text, id) : text;
      const message = JSON.parse(json) as JsonRpcAnswer;
      if (method === "initialize") headers["mcp-protocol-version"] = PROTOCOL_VERSION;
      return answerOf(message, method);
    },
    async notify(method) {
      await (await post({ method })).arrayBuffer();
    },
    async close() {
      if (headers["mcp-session-id"] === undefined) return;
      await (await fetch(url, { method: "DELETE", headers })).arrayBuffer();
    },
  };
}

/** The `data:` line of an event stream that answers request `id`. */
function sseAnswer(text: string, id: number): string {
  for (const line of text.split("\n")) {
    if (!line.startsWith("data:")) continue;
    const data = line.slice(5).trim();
    if (data.includes(`"id":${id}`)) return data;
  }
  throw new Error(`${LABEL}: the event stream held no answer to request ${id}`);
}
