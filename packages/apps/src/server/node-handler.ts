import type { IncomingMessage, ServerResponse } from "node:http";
import type { AppsFetchHandler } from "./apps-handler.js";

/** A `node:http` request handler; Express and Connect take it as middleware (`next` is called for nothing). */
export type AppsNodeHandler = (
  request: IncomingMessage,
  response: ServerResponse,
  next?: (error?: unknown) => void,
) => void;

/** Largest body the Node side reads before it gives up (the fetch handler has its own, lower, limit). */
const MAX_NODE_BODY_BYTES = 8 * 1024 * 1024;

/** Runs a Fetch-style handler for `node:http`: the request becomes a `Request`, the `Response` is written back. */
export function toNodeHandler(handler: AppsFetchHandler): AppsNodeHandler {
  return (request, response, next) => {
    void serve(handler, request, response).catch((error: unknown) => {
      if (next !== undefined) next(error);
      else if (!response.headersSent) response.writeHead(500).end();
      else response.destroy();
    });
  };
}

async function serve(handler: AppsFetchHandler, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const controller = new AbortController();
  response.on("close", () => {
    if (!response.writableFinished) controller.abort();
  });
  const method = request.method ?? "GET";
  const body = method === "GET" || method === "HEAD" ? undefined : await readAll(request);
  const url = new URL(request.url ?? "/", `http://${request.headers.host ?? "localhost"}`);
  const headers = new Headers();
  for (const [key, value] of Object.entries(request.headers)) {
    if (typeof value === "string") headers.set(key, value);
  }
  const answer = await handler(
    new Request(url, { method, headers, signal: controller.signal, ...(body === undefined ? {} : { body }) }),
  );
  response.writeHead(answer.status, Object.fromEntries(answer.headers));
  response.end(Buffer.from(await answer.arrayBuffer()));
}

async function readAll(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_NODE_BODY_BYTES) throw new Error(`request body over ${MAX_NODE_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
