import type { IncomingMessage, ServerResponse } from "node:http";

// Node's http server on one side, a fetch-shaped handler (a web `Request` in, a `Response` out) on
// the other: the 2026-07-28 endpoint is the v2 SDK's fetch-shaped handler.

/**
 * The web `Request` for a Node request whose body was already read (it goes to the handler as
 * `parsedBody`, so it is not copied here). Its signal aborts when the client goes away before the
 * answer is complete, which cancels the exchange (and the upstream call under it).
 */
export function toWebRequest(request: IncomingMessage, response: ServerResponse): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const aborted = new AbortController();
  response.once("close", () => {
    if (!response.writableFinished) aborted.abort();
  });
  return new Request(new URL(request.url ?? "/", `http://${request.headers.host ?? "gateway"}`), {
    method: request.method ?? "POST",
    headers,
    signal: aborted.signal,
  });
}

/** Writes a web `Response` (a JSON body or an event stream) to a Node response, streaming as it comes. */
export async function sendWebResponse(response: ServerResponse, answer: Response): Promise<void> {
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    headers[name] = value;
  });
  response.writeHead(answer.status, headers);
  if (answer.body === null) {
    response.end();
    return;
  }
  const reader: ReadableStreamDefaultReader<Uint8Array> = answer.body.getReader();
  response.once("close", () => {
    reader.cancel().catch(() => undefined);
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      response.write(value);
    }
  } catch {
    // The client went away or the handler ended the stream: nothing more to send.
  }
  response.end();
}
