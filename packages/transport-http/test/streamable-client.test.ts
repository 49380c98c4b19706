import {
  startFaultHttpServer,
  type FaultBehavior,
  type FaultHttpServer,
  type RecordedRequest,
} from "@mcp-tool-adapter/test-servers";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { isParsedFromWire } from "@mcp-tool-adapter/core/value-rules";
import { afterEach, describe, expect, it } from "vitest";
import { createStreamableHttpTransport, HttpTransportError } from "../src/index.js";
import { rejectionOf, waitFor } from "./helpers.js";

// The wire behaviour of the streamable HTTP client transport (MCP 2025-11-25, "Streamable HTTP"),
// against a scripted server on 127.0.0.1: what it sends, and what it makes of each kind of answer.

let server: FaultHttpServer | undefined;
let transport: Transport | undefined;

afterEach(async () => {
  await transport?.close();
  await server?.close();
  transport = server = undefined;
});

const initialize: JSONRPCMessage = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
};
const initialized: JSONRPCMessage = { jsonrpc: "2.0", method: "notifications/initialized" };
const listTools = (id: number): JSONRPCMessage => ({ jsonrpc: "2.0", id, method: "tools/list", params: {} });

function json(body: unknown, headers: Record<string, string> = {}): FaultBehavior {
  return { kind: "status", status: 200, body: body as Record<string, unknown>, headers };
}

function sse(chunks: string[], more: Partial<Extract<FaultBehavior, { kind: "chunks" }>> = {}): FaultBehavior {
  return { kind: "chunks", contentType: "text/event-stream", chunks, ...more };
}

function idOf(request: RecordedRequest): unknown {
  return request.body === "" ? undefined : (JSON.parse(request.body) as { id?: unknown }).id;
}

/** Starts the server with `plan`, and a transport to it that records what it hears. */
async function connect(plan: (request: RecordedRequest, index: number) => FaultBehavior) {
  server = await startFaultHttpServer(plan);
  const created = createStreamableHttpTransport({ url: server.url, headers: { "X-Team": "blue" } });
  transport = created;
  const heard: JSONRPCMessage[] = [];
  const errors: Error[] = [];
  created.onmessage = (message) => heard.push(message);
  created.onerror = (error) => errors.push(error);
  await created.start();
  return { transport: created, server, heard, errors };
}

describe("the streamable HTTP client transport on the wire", () => {
  it("POSTs JSON with the spec's headers, the session id and protocol version once known, and opens the GET stream after initialized", async () => {
    const { transport, server, heard, errors } = await connect((request) => {
      if (request.method === "GET") return { kind: "status", status: 405 };
      if (idOf(request) === undefined) return { kind: "status", status: 202 };
      return json({ jsonrpc: "2.0", id: idOf(request), result: { ok: true } }, { "mcp-session-id": "s-1" });
    });
    await transport.send(initialize);
    transport.setProtocolVersion?.("2025-11-25");
    await transport.send(initialized);
    await transport.send(listTools(2));
    await waitFor(() => server.requests.some((request) => request.method === "GET"));
    const [first, second, ...rest] = server.requests;
    expect(first?.headers).toMatchObject({
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      "x-team": "blue",
    });
    expect(first?.headers["mcp-session-id"]).toBeUndefined();
    expect(first?.headers["mcp-protocol-version"]).toBeUndefined();
    expect(second?.headers).toMatchObject({ "mcp-session-id": "s-1", "mcp-protocol-version": "2025-11-25" });
    const get = rest.find((request) => request.method === "GET");
    expect(get?.headers).toMatchObject({ accept: "text/event-stream", "mcp-session-id": "s-1", "x-team": "blue" });
    expect(transport.sessionId).toBe("s-1");
    expect(heard).toEqual([
      { jsonrpc: "2.0", id: 1, result: { ok: true } },
      { jsonrpc: "2.0", id: 2, result: { ok: true } },
    ]);
    // 405 on the GET: the server has no standalone stream, which is no error.
    expect(errors).toEqual([]);
  });

  it("delivers a POST's event stream in order, however the server cuts it into chunks and lines", async () => {
    const { transport, heard, errors } = await connect(() =>
      sse(
        [
          ': a comment\r\nid: e1\r\ndata:\r\n\r\nevent: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress",',
          '"params":{"progressToken":1,"progress":1}}\n\ndata: {"jsonrpc":"2.0","id":"r1","method":"roots/list"}\r',
          '\n\r\ndata: {"jsonrpc":"2.0","id":5,\ndata: "result":{"tools":[]}}\n\n',
        ],
        { intervalMs: 20 },
      ),
    );
    await transport.send(listTools(5));
    await waitFor(() => heard.length === 3);
    expect(heard).toEqual([
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } },
      { jsonrpc: "2.0", id: "r1", method: "roots/list" },
      // Two data lines are one message, joined with a line break.
      { jsonrpc: "2.0", id: 5, result: { tools: [] } },
    ]);
    expect(errors).toEqual([]);
  });

  it("delivers a server's request on a POST's stream with the id of the request that POST carried (kept when the stream is resumed), and one on the standalone stream with none", async () => {
    const elicit =
      '{"jsonrpc":"2.0","id":"s1","method":"elicitation/create","params":{"message":"Name?","requestedSchema":{"type":"object","properties":{}}}}';
    const { transport, heard } = await connect((request) => {
      if (request.method === "GET" && request.headers["last-event-id"] === undefined)
        return sse(['data: {"jsonrpc":"2.0","id":"g1","method":"roots/list"}\n\n'], { keepOpen: true });
      if (request.method === "GET")
        return sse([
          `id: r2\ndata: ${elicit.replace('"s1"', '"s3"')}\n\n`,
          'data: {"jsonrpc":"2.0","id":8,"result":{}}\n\n',
        ]);
      if (idOf(request) === undefined) return { kind: "status", status: 202 };
      if (idOf(request) === 4) return sse([`id: r1\ndata: ${elicit.replace('"s1"', '"s2"')}\n\n`], { dropAfter: true });
      return sse([`data: ${elicit}\n\n`, `data: {"jsonrpc":"2.0","id":${String(idOf(request))},"result":{}}\n\n`]);
    });
    const extras = new Map<unknown, unknown>();
    transport.onmessage = (message, extra) => {
      heard.push(message);
      if ("method" in message && "id" in message) extras.set(message.id, extra);
    };
    await transport.send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "ask", arguments: {} } });
    await waitFor(() => extras.has("s1"));
    expect(extras.get("s1")).toEqual({ relatedRequestId: 3 });
    // The standalone GET stream (opened after initialized) belongs to no request of ours.
    await transport.send(initialized);
    await waitFor(() => extras.has("g1"));
    expect(extras.get("g1")).toBeUndefined();
    // A POST's stream that broke before its answer keeps its request when it is resumed.
    await transport.send({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "ask", arguments: {} } });
    await waitFor(() => extras.has("s3"));
    expect(extras.get("s2")).toEqual({ relatedRequestId: 4 });
    expect(extras.get("s3")).toEqual({ relatedRequestId: 4 });
  });

  it("resumes a POST's stream that broke before its response with Last-Event-ID, after the server's retry", async () => {
    const { transport, server, heard, errors } = await connect((request) => {
      if (request.method === "POST")
        return sse(
          [
            "id: p0\nretry: 20\ndata:\n\n",
            'id: p1\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"half"}}\n\n',
          ],
          { dropAfter: true },
        );
      return sse(['id: p2\ndata: {"jsonrpc":"2.0","id":7,"result":{"done":true}}\n\n']);
    });
    await transport.send(listTools(7));
    await waitFor(() => heard.length === 2);
    expect(heard[1]).toEqual({ jsonrpc: "2.0", id: 7, result: { done: true } });
    const resumed = server.requests.find((request) => request.method === "GET");
    expect(resumed?.headers["last-event-id"]).toBe("p1");
    // The stream that broke is reported; the resumption that answered is not.
    expect(errors.map((error) => error.message)).toEqual([expect.stringMatching(/event stream/)]);
  });

  it("gives up resuming the standalone stream after the bounded attempts, and says so", async () => {
    const { transport, server, errors } = await connect((request) => {
      if (request.method === "POST") return { kind: "status", status: 202 };
      return request.headers["last-event-id"] === undefined
        ? sse(["retry: 10\nid: g1\ndata:\n\n"], { dropAfter: true })
        : { kind: "status", status: 500 };
    });
    await transport.send(initialized);
    await waitFor(() => errors.some((error) => error.message.includes("Maximum reconnection attempts")));
    const gets = server.requests.filter((request) => request.method === "GET");
    expect(gets.map((request) => request.headers["last-event-id"])).toEqual([undefined, "g1", "g1"]);
  });

  it("ends the session with a DELETE, tolerating a 405", async () => {
    const { transport, server } = await connect((request) =>
      request.method === "DELETE"
        ? { kind: "status", status: 405 }
        : json({ jsonrpc: "2.0", id: 1, result: {} }, { "mcp-session-id": "s-9" }),
    );
    await transport.send(initialize);
    await (transport as Transport & { terminateSession(): Promise<void> }).terminateSession();
    const deleted = server.requests.at(-1);
    expect(deleted?.method).toBe("DELETE");
    expect(deleted?.headers["mcp-session-id"]).toBe("s-9");
    expect(transport.sessionId).toBeUndefined();
  });

  it("sends the DELETE once, takes a 404 as the session being over, and sends none once closed", async () => {
    const { transport, server } = await connect((request) =>
      request.method === "DELETE"
        ? { kind: "status", status: 404 }
        : json({ jsonrpc: "2.0", id: 1, result: {} }, { "mcp-session-id": "s-10" }),
    );
    const ending = transport as Transport & { terminateSession(): Promise<void> };
    await transport.send(initialize);
    await Promise.all([ending.terminateSession(), ending.terminateSession()]);
    await ending.terminateSession();
    await transport.close();
    await ending.terminateSession();
    expect(server.requests.filter((request) => request.method === "DELETE")).toHaveLength(1);
  });

  it("sends the DELETE with the session's headers: its id, the auth provider's token, the config's headers", async () => {
    server = await startFaultHttpServer((request) =>
      request.method === "DELETE"
        ? { kind: "status", status: 200 }
        : json({ jsonrpc: "2.0", id: 1, result: {} }, { "mcp-session-id": "s-12" }),
    );
    const authProvider = {
      tokens: () => ({ access_token: "oauth-access-5120", token_type: "Bearer" }),
    } as unknown as OAuthClientProvider;
    const created = createStreamableHttpTransport({ url: server.url, headers: { "X-Team": "blue" } }, { authProvider });
    transport = created;
    await created.start();
    await created.send(initialize);
    await (created as Transport & { terminateSession(): Promise<void> }).terminateSession();
    const deletes = server.requests.filter((request) => request.method === "DELETE");
    expect(deletes).toHaveLength(1);
    expect(deletes[0]?.headers).toMatchObject({
      "mcp-session-id": "s-12",
      authorization: "Bearer oauth-access-5120",
      "x-team": "blue",
    });
  });

  it("sends no DELETE from a transport closed before it", async () => {
    const { transport, server } = await connect(() =>
      json({ jsonrpc: "2.0", id: 1, result: {} }, { "mcp-session-id": "s-11" }),
    );
    await transport.send(initialize);
    await transport.close();
    await (transport as Transport & { terminateSession(): Promise<void> }).terminateSession();
    expect(server.requests.filter((request) => request.method === "DELETE")).toEqual([]);
  });

  describe("a notification in flight when the session is ended", () => {
    const cancelled: JSONRPCMessage = {
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 2, reason: "disconnect" },
    };

    it("holds the DELETE until it settles; the close gives up on both, and reports nothing", async () => {
      const { transport, server, errors } = await connect((request) =>
        request.method === "DELETE"
          ? { kind: "status", status: 200 }
          : idOf(request) === undefined
            ? { kind: "hang" }
            : json({ jsonrpc: "2.0", id: 1, result: {} }, { "mcp-session-id": "s-13" }),
      );
      await transport.send(initialize);
      const cancelling = transport.send(cancelled);
      const ending = (transport as Transport & { terminateSession(): Promise<void> }).terminateSession();
      await waitFor(() => server.requests.length >= 2);
      // Long enough for a DELETE sent at once to arrive.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(server.requests.map((request) => request.method)).toEqual(["POST", "POST"]);
      await transport.close();
      await ending;
      await expect(cancelling).resolves.toBeUndefined();
      expect(server.requests.filter((request) => request.method === "DELETE")).toEqual([]);
      expect(errors).toEqual([]);
    });

    it("is not reported when the server refuses it because the session ended (404)", async () => {
      let ended = false;
      const { transport, errors } = await connect((request) => {
        if (request.method === "DELETE") {
          ended = true;
          return { kind: "status", status: 200 };
        }
        if (ended) return { kind: "status", status: 404 };
        return json({ jsonrpc: "2.0", id: 1, result: {} }, { "mcp-session-id": "s-14" });
      });
      await transport.send(initialize);
      await (transport as Transport & { terminateSession(): Promise<void> }).terminateSession();
      await expect(transport.send(cancelled)).resolves.toBeUndefined();
      expect(errors).toEqual([]);
    });
  });

  it("fails a POST answered 404 in a session as NOT_FOUND with status 404, the session id kept (the session expired)", async () => {
    const { transport } = await connect((_request, index) =>
      index === 0
        ? json({ jsonrpc: "2.0", id: 1, result: {} }, { "mcp-session-id": "s-2" })
        : { kind: "status", status: 404, body: "no such session" },
    );
    await transport.send(initialize);
    const error = await rejectionOf(transport.send(listTools(2)));
    expect(HttpTransportError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: "NOT_FOUND", status: 404 });
    expect((error as Error).message).toContain("no such session");
    expect(transport.sessionId).toBe("s-2");
  });

  it("refuses an answer that is neither JSON nor an event stream as UNEXPECTED_RESPONSE", async () => {
    const { transport } = await connect(() => ({
      kind: "status",
      status: 200,
      body: "<html>hi</html>",
      headers: { "content-type": "text/html" },
    }));
    const error = await rejectionOf(transport.send(listTools(1)));
    expect(error).toMatchObject({ code: "UNEXPECTED_RESPONSE" });
    expect((error as Error).message).toContain("text/html");
  });

  it("follows a same-origin 307 and refuses to follow one to another origin", async () => {
    const { transport, server } = await connect((request) => {
      if (request.url === "/mcp") return { kind: "status", status: 307, headers: { location: "/moved" } };
      if (request.url === "/moved")
        return { kind: "status", status: 307, headers: { location: "http://localhost:1/elsewhere" } };
      return { kind: "status", status: 500 };
    });
    const error = await rejectionOf(transport.send(listTools(1)));
    expect(server.requests.map((request) => request.url)).toEqual(["/mcp", "/moved"]);
    expect(error).toMatchObject({ code: "UNEXPECTED_RESPONSE", status: 307 });
    expect((error as Error).message).toContain("Redirect to http://localhost:1/elsewhere not followed");
  });

  it("marks each result it parsed from a body, JSON or event stream, as parsed from the wire (so a listing can be frozen in place)", async () => {
    const { transport, heard } = await connect((request) =>
      idOf(request) === 1
        ? json({ jsonrpc: "2.0", id: 1, result: { tools: [{ name: "a", inputSchema: { type: "object" } }] } })
        : sse([
            'data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":1}}\n\n',
            'data: {"jsonrpc":"2.0","id":2,"result":{"tools":[]}}\n\n',
          ]),
    );
    await transport.send(listTools(1));
    await transport.send(listTools(2));
    await waitFor(() => heard.length === 3);
    const [fromJson, notification, fromStream] = heard as { result?: unknown; params?: unknown }[];
    expect(isParsedFromWire(fromJson?.result)).toBe(true);
    expect(isParsedFromWire(fromStream?.result)).toBe(true);
    // Only results: a request's or notification's params go to handlers that may keep them as they are.
    expect(isParsedFromWire(notification?.params)).toBe(false);
  });

  it("delivers what only the full schema can pass, and reports, without delivering, what it refuses", async () => {
    const { transport, heard, errors } = await connect((request) =>
      idOf(request) === 1
        ? json({ jsonrpc: "2.0", id: 1, error: { code: -32601, message: "Method not found", data: { x: 1 } } })
        : sse([
            'data: {"jsonrpc":"2.0","id":2,"result":[1]}\n\n',
            'data: {"jsonrpc":"2.0","id":2,"result":{"_meta":{"k":1}}}\n\n',
          ]),
    );
    await transport.send(listTools(1));
    await transport.send(listTools(2));
    await waitFor(() => heard.length === 2);
    expect(heard).toEqual([
      { jsonrpc: "2.0", id: 1, error: { code: -32601, message: "Method not found", data: { x: 1 } } },
      { jsonrpc: "2.0", id: 2, result: { _meta: { k: 1 } } },
    ]);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/not valid JSON-RPC/);
  });
});
