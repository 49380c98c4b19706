import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
} from "@modelcontextprotocol/server";

// A 2026-07-28 tools/call written by hand (plain fetch, the envelope in `_meta`): for the retries a
// real client would never send (forged or altered states, retries on another copy, stale states).

/** The JSON-RPC answer of one call: its result (a tool result, or input_required) or its error. */
export interface ModernAnswer {
  result?: { resultType?: string; requestState?: string; inputRequests?: Record<string, unknown> } & Record<
    string,
    unknown
  >;
  error?: { code: number; message: string; data?: { code?: string } & Record<string, unknown> };
}

export interface ModernCallByHand {
  /** The gateway's (or a copy's) MCP endpoint. */
  readonly url: string;
  readonly name: string;
  readonly arguments?: Record<string, unknown>;
  /** Extra params: `requestState`, `inputResponses`. */
  readonly extra?: Record<string, unknown>;
  /** The client capabilities in the envelope; default elicitation (form). */
  readonly capabilities?: Record<string, unknown>;
  /** Extra HTTP headers (e.g. a hop mark a client forges). */
  readonly headers?: Record<string, string>;
  /** Ends the request (the fetch rejects), as a client that cancels. */
  readonly signal?: AbortSignal;
  /** Asks for progress notifications on the exchange. */
  readonly progressToken?: string;
}

let nextId = 1_000;

export async function callToolByHand(call: ModernCallByHand): Promise<ModernAnswer> {
  const response = await fetch(call.url, requestOf(call));
  const text = await response.text();
  // JSON, or one SSE event carrying the answer.
  const json = text.startsWith("{") ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? "{}");
  return JSON.parse(json) as ModernAnswer;
}

/** A call whose answer is read as it streams: its messages in order, and when its progress came. */
export interface StreamedCall {
  /** Resolves when a progress notification arrived. */
  readonly progressed: Promise<void>;
  /** Resolves when `count` progress notifications arrived (a rerun's follow those relayed before a cut-off). */
  progressedTimes(count: number): Promise<void>;
  /** Every JSON-RPC message of the exchange, once it ended (rejects if it failed). */
  readonly messages: Promise<Record<string, unknown>[]>;
}

export function streamToolCallByHand(call: ModernCallByHand): StreamedCall {
  let progressCount = 0;
  const waiting: { count: number; resolve: () => void }[] = [];
  const progressed = (): void => {
    progressCount += 1;
    for (const waiter of waiting.filter((one) => one.count <= progressCount)) waiter.resolve();
  };
  const progressedTimes = (count: number): Promise<void> =>
    count <= progressCount ? Promise.resolve() : new Promise((resolve) => waiting.push({ count, resolve }));
  const messages = (async () => {
    const response = await fetch(call.url, requestOf(call));
    const all: Record<string, unknown>[] = [];
    const decoder = new TextDecoder();
    let text = "";
    const reader = (response.body as ReadableStream<Uint8Array> | null)?.getReader();
    for (let next = await reader?.read(); next !== undefined && !next.done; next = await reader?.read()) {
      text += decoder.decode(next.value, { stream: true });
      let end = text.indexOf("\n\n");
      while (end >= 0) {
        for (const line of text.slice(0, end).split("\n")) {
          if (!line.startsWith("data: ")) continue;
          const message = JSON.parse(line.slice(6)) as Record<string, unknown>;
          all.push(message);
          if (message["method"] === "notifications/progress") progressed();
        }
        text = text.slice(end + 2);
        end = text.indexOf("\n\n");
      }
    }
    if (text.startsWith("{")) all.push(JSON.parse(text) as Record<string, unknown>);
    return all;
  })();
  return { progressed: progressedTimes(1), progressedTimes, messages };
}

function requestOf(call: ModernCallByHand): RequestInit {
  return {
    method: "POST",
    ...(call.signal === undefined ? {} : { signal: call.signal }),
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": call.name,
      ...call.headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: ++nextId,
      method: "tools/call",
      params: {
        name: call.name,
        arguments: call.arguments ?? {},
        _meta: {
          [PROTOCOL_VERSION_META_KEY]: "2026-07-28",
          [CLIENT_INFO_META_KEY]: { name: "by-hand", version: "1" },
          [CLIENT_CAPABILITIES_META_KEY]: call.capabilities ?? { elicitation: { form: {} } },
          ...(call.progressToken === undefined ? {} : { progressToken: call.progressToken }),
        },
        ...call.extra,
      },
    }),
  };
}

/** The state and first question key of an `input_required` answer; fails the test when it is none. */
export function questionOf(answer: ModernAnswer): { state: string; key: string } {
  if (answer.result?.resultType !== "input_required") {
    throw new Error(`expected an input_required result, got ${JSON.stringify(answer)}`);
  }
  const key = Object.keys(answer.result.inputRequests ?? {})[0];
  const state = answer.result.requestState;
  if (typeof state !== "string" || key === undefined)
    throw new Error(`no state or question in ${JSON.stringify(answer)}`);
  return { state, key };
}

/** A retry's extra fields that answer `asked` by accepting with `{ name }` (the eliciting server's question). */
export function answeredWith(asked: { state: string; key: string }, name: string): Record<string, unknown> {
  return {
    requestState: asked.state,
    inputResponses: { [asked.key]: { action: "accept", content: { name } } },
  };
}
