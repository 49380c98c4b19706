import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { SseParser } from "@mcp-tool-adapter/transport-http";
import { Agent } from "undici";
import { startCpuReport } from "./cpu-report.js";

/**
 * The HTTP proxy floor: the least a Node process in the middle of a 2025-era streamable HTTP
 * exchange does, held to the stdio proxy floor's rules (proxy-floor.ts). A `node:http` server on
 * 127.0.0.1 takes each POST, parses its body once, gives a client request an id of its own (and the
 * answer its id back), serializes it again and sends it upstream with undici's `request()` on a
 * keep-alive Agent (the client the gateway's transport-http uses on Node); the upstream's answer
 * (server-everything answers with an event stream) is read to its end, each event's message parsed
 * once (transport-http's SseParser, as the gateway reads it) and serialized once, and sent back the
 * way the gateway answers a POST: one JSON body with its headers in one write when it is the response
 * alone, else the events as one event stream. The client's `Mcp-Session-Id` is mapped to the
 * upstream's (the floor hands out its own ids, as a gateway must).
 *
 * What it does not do: no policy, no MCP handshake of its own, no checks (Host, Origin, Accept,
 * body size, JSON-RPC shape), no GET stream (a GET is answered 405, which clients take as "no
 * stream"), no streaming of an answer before it ends, no resumption, no cancellation when a client
 * goes away. What any Node gateway process costs per call, to set beside ours.
 */
interface FloorConfig {
  /** The upstream MCP endpoint, e.g. http://127.0.0.1:3001/mcp. */
  readonly upstreamUrl: string;
  readonly cpuReportPath?: string;
}

type Id = string | number;
interface Message {
  id?: Id;
  method?: string;
}

const SESSION_HEADER = "mcp-session-id";
/** Headers the client sends that the upstream needs as they are. */
const PASSED_HEADERS = ["content-type", "accept", "mcp-protocol-version"] as const;

const config = JSON.parse(process.argv[2] ?? "{}") as FloorConfig;
const upstreamUrl = new URL(config.upstreamUrl);
const upstreamPath = `${upstreamUrl.pathname}${upstreamUrl.search}`;
const agent = new Agent({ keepAliveTimeout: 60_000 });

/** The upstream's session id for each id this floor handed out. */
const upstreamSessions = new Map<string, string>();
let nextSession = 0;
let nextId = 0;

/** A client request gets an id of the floor's own; the client's id is returned with the answer. */
function toUpstream(message: Message, clientIds: Map<number, Id>): Message {
  if (message.method === undefined || message.id === undefined) return message;
  const id = nextId++;
  clientIds.set(id, message.id);
  message.id = id;
  return message;
}

function toClient(message: Message, clientIds: Map<number, Id>): Message {
  if (message.method !== undefined || typeof message.id !== "number") return message;
  const id = clientIds.get(message.id);
  if (id !== undefined) message.id = id;
  return message;
}

function readBody(stream: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.once("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    stream.once("error", reject);
  });
}

async function forward(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
  if (incoming.method === "GET") {
    outgoing.writeHead(405).end();
    return;
  }
  const headers: Record<string, string> = {};
  for (const name of PASSED_HEADERS) {
    const value = incoming.headers[name];
    if (typeof value === "string") headers[name] = value;
  }
  const ownSession = incoming.headers[SESSION_HEADER];
  if (typeof ownSession === "string") {
    const upstreamSession = upstreamSessions.get(ownSession);
    if (upstreamSession === undefined) {
      outgoing.writeHead(404).end();
      return;
    }
    headers[SESSION_HEADER] = upstreamSession;
  }
  const clientIds = new Map<number, Id>();
  let body: string | undefined;
  if (incoming.method === "POST") {
    const parsed = JSON.parse(await readBody(incoming)) as Message | Message[];
    body = JSON.stringify(
      Array.isArray(parsed) ? parsed.map((each) => toUpstream(each, clientIds)) : toUpstream(parsed, clientIds),
    );
  }
  const answer = await agent.request({
    origin: upstreamUrl.origin,
    path: upstreamPath,
    method: incoming.method === "DELETE" ? "DELETE" : "POST",
    headers,
    body,
  });
  const answerHeaders: Record<string, string> = {};
  const upstreamSession = answer.headers[SESSION_HEADER];
  if (typeof upstreamSession === "string") {
    let session = typeof ownSession === "string" ? ownSession : undefined;
    if (session === undefined) {
      session = `floor-${nextSession++}`;
      upstreamSessions.set(session, upstreamSession);
    }
    answerHeaders[SESSION_HEADER] = session;
  }
  const contentType = answer.headers["content-type"];
  const bytes = Buffer.from(await answer.body.arrayBuffer());
  if (answer.statusCode !== 200 || typeof contentType !== "string") {
    outgoing.writeHead(answer.statusCode, answerHeaders).end(bytes);
    return;
  }
  const messages: Message[] = [];
  if (contentType.startsWith("text/event-stream")) {
    const parser = new SseParser({
      onEvent: (event) => {
        if (event.data !== "") messages.push(toClient(JSON.parse(event.data) as Message, clientIds));
      },
      onRetry: () => undefined,
    });
    parser.push(bytes);
    parser.end();
  } else {
    const parsed = JSON.parse(bytes.toString("utf8")) as Message | Message[];
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) messages.push(toClient(message, clientIds));
  }
  const only = messages.length === 1 ? messages[0] : undefined;
  if (only !== undefined && only.method === undefined) {
    const json = JSON.stringify(only);
    outgoing.writeHead(200, {
      ...answerHeaders,
      "content-type": "application/json",
      "content-length": Buffer.byteLength(json),
    });
    outgoing.end(json);
    return;
  }
  let events = "";
  for (const message of messages) events += `event: message\ndata: ${JSON.stringify(message)}\n\n`;
  outgoing.writeHead(200, { ...answerHeaders, "content-type": "text/event-stream" }).end(events);
}

const server = createServer((incoming, outgoing) => {
  forward(incoming, outgoing).catch((error: unknown) => {
    if (!outgoing.headersSent) outgoing.writeHead(502);
    outgoing.end(String(error));
  });
});
// Idle connections kept a minute, as nginx keeps them (75 s), not node:http's 5 s: on a loaded machine a
// client's pool reused a connection the floor was closing at that moment ("other side closed", session 25).
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`http://127.0.0.1:${(server.address() as AddressInfo).port}${upstreamUrl.pathname}\n`);
});
const cpu = startCpuReport(config.cpuReportPath);

process.once("SIGTERM", () => {
  cpu.write();
  process.exit(0);
});
