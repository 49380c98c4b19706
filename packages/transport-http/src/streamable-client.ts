import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, MessageExtraInfo, RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { JsonRpcMessageCheck, MCPIncomingMessageExtra } from "@mcp-tool-adapter/core";
import { markParsedFromWire } from "@mcp-tool-adapter/core/value-rules";
import { authorize } from "./auth-flow.js";
import { bodyReader, discardBody } from "./body-reader.js";
import type { FetchLike } from "./guarded-fetch.js";
import { fetchWithinOrigin, unfollowedRedirect } from "./redirects.js";
import { SseParser, type ServerSentEvent } from "./sse-parser.js";
import { HttpStatusError } from "./status-error.js";
import { bearerChallengeOf } from "./www-authenticate.js";

/** How an event stream that broke before its response is resumed. */
export interface ReconnectionSettings {
  initialDelayMs: number;
  maxDelayMs: number;
  growFactor: number;
  /** Attempts in a row before giving up (each failure is reported). */
  maxRetries: number;
}

export const DEFAULT_RECONNECTION: ReconnectionSettings = {
  initialDelayMs: 1_000,
  maxDelayMs: 30_000,
  growFactor: 1.5,
  maxRetries: 2,
};

export interface StreamableHttpClientOptions {
  url: URL;
  /** The config's headers; they win over the transport's own (as requestInit's did in SDK 1.x). */
  headers: Readonly<Record<string, string>>;
  fetch: FetchLike;
  checkMessage: JsonRpcMessageCheck<JSONRPCMessage>;
  authProvider?: OAuthClientProvider | undefined;
  reconnection?: ReconnectionSettings;
}

/** Where a stream's messages go, and what it must do when it breaks. */
interface StreamOptions {
  /** A standalone GET stream is resumed whenever it ends; a POST's only if it had an event id. */
  reconnectable: boolean;
  resumptionToken?: string | undefined;
  onresumptiontoken?: ((token: string) => void) | undefined;
  /** The id of the request whose answer a resumed stream replays (it may carry the server's id). */
  replayMessageId?: RequestId | undefined;
  /**
   * The id of the one request the POST that opened this stream carried (kept when the stream is
   * resumed): the server's requests on it belong to that request. Undefined on the standalone stream.
   */
  relatedRequestId?: RequestId | undefined;
}

const POST_ACCEPT = "application/json, text/event-stream";

/**
 * The MCP Streamable HTTP client transport (2025-11-25): a POST per message answered with JSON or
 * an event stream, the standalone GET stream opened after `notifications/initialized` (405: the
 * server has none), resumption with `Last-Event-ID` and the server's `retry`, DELETE to end the
 * session, and OAuth through an SDK 1.x auth provider (one retry after a 401, step-up on a 403
 * `insufficient_scope`). Messages are checked with core's quick check. A request of the server's
 * that comes on a POST's response stream is delivered with the id of the request that POST carried
 * (`extra.relatedRequestId`, core's MCPIncomingMessageExtra): the one link MCP has from a server's
 * question to the call it is about. A failed send or DELETE is
 * thrown, a failure in the background (an event stream) reported through `onerror`, both
 * unclassified: HttpTransport classifies them.
 */
export class StreamableHttpClient implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo & MCPIncomingMessageExtra) => void;

  private readonly url: URL;
  private readonly configHeaders: Readonly<Record<string, string>>;
  private readonly fetch: FetchLike;
  private readonly checkMessage: JsonRpcMessageCheck<JSONRPCMessage>;
  private readonly authProvider: OAuthClientProvider | undefined;
  private readonly reconnection: ReconnectionSettings;
  private abort: AbortController | undefined;
  private session: string | undefined;
  private protocolVersion: string | undefined;
  private serverRetryMs: number | undefined;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private resourceMetadataUrl: URL | undefined;
  private scope: string | undefined;
  /** A 401 right after a completed auth flow is final, not another flow. */
  private justAuthorized = false;
  private lastUpscopingChallenge: string | null | undefined;
  /** The DELETE that ends the session was sent (or is under way): it is sent once. */
  private sessionEnding = false;

  constructor(options: StreamableHttpClientOptions) {
    this.url = options.url;
    this.configHeaders = lowerCaseNames(options.headers);
    this.fetch = options.fetch;
    this.checkMessage = options.checkMessage;
    this.authProvider = options.authProvider;
    this.reconnection = options.reconnection ?? DEFAULT_RECONNECTION;
  }

  get sessionId(): string | undefined {
    return this.session;
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  start(): Promise<void> {
    if (this.abort !== undefined)
      return Promise.reject(new Error("The Streamable HTTP transport was started already."));
    this.abort = new AbortController();
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (this.reconnectTimer !== undefined) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    this.abort?.abort();
    this.onclose?.();
    return Promise.resolve();
  }

  /**
   * Sends a message. A failure is thrown only, not reported: HttpTransport reports a failed send
   * itself, as a request's failure (reported here first, it was classified as the event stream's).
   */
  send(message: JSONRPCMessage | JSONRPCMessage[], options?: TransportSendOptions): Promise<void> {
    if (options?.resumptionToken !== undefined) {
      const replayMessageId =
        !Array.isArray(message) && "method" in message && "id" in message ? message.id : undefined;
      this.openStream({
        reconnectable: true,
        resumptionToken: options.resumptionToken,
        replayMessageId,
        relatedRequestId: replayMessageId,
      }).catch((error: unknown) => this.report(error));
      return Promise.resolve();
    }
    // Not async: the POST's own promise is the send's, with no wrapper and its turns per message.
    return this.post(message, options?.onresumptiontoken);
  }

  /**
   * Ends the server's session with a DELETE carrying the session's headers (its id, the auth
   * provider's token, the config's headers). Sent once: a second call (or one while the first is
   * under way) sends nothing. A 405 (the server keeps sessions itself) and a 404 (it no longer
   * knows the session) are fine: either way the session is over. Aborted by `close()`.
   */
  async terminateSession(): Promise<void> {
    if (this.session === undefined || this.sessionEnding) return;
    // Set before the first await: the id stays in the headers of whatever else is still sent.
    this.sessionEnding = true;
    const response = await fetchWithinOrigin(this.fetch, this.url, {
      method: "DELETE",
      headers: await this.headers(),
      signal: this.abort?.signal ?? null,
    });
    await discardBody(response);
    if (!response.ok && response.status !== 405 && response.status !== 404) {
      throw new HttpStatusError(
        response.status,
        `Failed to terminate session: ${unfollowedRedirect(response, this.url) ?? response.statusText}`,
      );
    }
    this.session = undefined;
  }

  private async post(
    message: JSONRPCMessage | JSONRPCMessage[],
    onresumptiontoken: ((token: string) => void) | undefined,
  ): Promise<void> {
    // Without an auth provider the headers are at hand: no turn spent waiting for them.
    const headers = this.authProvider === undefined ? this.ownHeaders() : await this.headers();
    headers["content-type"] = "application/json";
    headers.accept = POST_ACCEPT;
    const response = await fetchWithinOrigin(this.fetch, this.url, {
      method: "POST",
      headers,
      body: JSON.stringify(message),
      signal: this.abort?.signal ?? null,
    });
    const session = response.headers.get("mcp-session-id");
    if (session !== null && session !== "") this.session = session;
    if (!response.ok) {
      await this.afterRefusal(response);
      return this.post(message, onresumptiontoken);
    }
    this.justAuthorized = false;
    this.lastUpscopingChallenge = undefined;
    if (response.status === 202) {
      await discardBody(response);
      if (isInitializedNotification(message))
        this.openStream({ reconnectable: true }).catch((error: unknown) => this.report(error));
      return;
    }
    if (!hasRequest(message)) {
      await discardBody(response);
      return;
    }
    const mediaType = mediaTypeOf(response.headers.get("content-type"));
    if (mediaType === "text/event-stream") {
      this.readStream(response, { reconnectable: false, onresumptiontoken, relatedRequestId: soleRequestId(message) });
    } else if (mediaType === "application/json") {
      await this.deliverJson(await response.text());
    } else {
      await discardBody(response);
      throw new HttpStatusError(-1, `Unexpected content type: ${response.headers.get("content-type") ?? "none"}`);
    }
  }

  /**
   * A POST refused: resolves when the auth provider authorized (the POST is to be sent again),
   * throws otherwise. A 401 runs the provider's flow once per refusal in a row; a 403
   * `insufficient_scope` asks for the scopes it names, once per distinct challenge.
   */
  private async afterRefusal(response: Response): Promise<void> {
    const text = await response.text().catch(() => "");
    const provider = this.authProvider;
    if (response.status === 401 && provider !== undefined) {
      if (this.justAuthorized) throw new HttpStatusError(401, "Server returned 401 after successful authentication");
      const challenge = bearerChallengeOf(response);
      this.resourceMetadataUrl = challenge.resourceMetadataUrl;
      this.scope = challenge.scope;
      await this.authorize(provider, this.authFetch);
      this.justAuthorized = true;
      return;
    }
    if (response.status === 403 && provider !== undefined) {
      const challenge = bearerChallengeOf(response);
      if (challenge.error === "insufficient_scope") {
        const header = response.headers.get("www-authenticate");
        if (this.lastUpscopingChallenge === header)
          throw new HttpStatusError(403, "Server returned 403 after trying upscoping");
        if (challenge.scope !== undefined) this.scope = challenge.scope;
        if (challenge.resourceMetadataUrl !== undefined) this.resourceMetadataUrl = challenge.resourceMetadataUrl;
        this.lastUpscopingChallenge = header;
        await this.authorize(provider, this.fetch);
        return;
      }
    }
    throw new HttpStatusError(
      response.status,
      `Error POSTing to endpoint: ${unfollowedRedirect(response, this.url) ?? text}`,
      text,
    );
  }

  private authorize(provider: OAuthClientProvider, fetch: FetchLike): Promise<void> {
    return authorize({
      provider,
      serverUrl: this.url,
      resourceMetadataUrl: this.resourceMetadataUrl,
      scope: this.scope,
      fetch,
    });
  }

  /** OAuth discovery and token requests carry the config's headers too, as SDK 1.x's did. */
  private readonly authFetch: FetchLike = (input, init) =>
    this.fetch(input, { ...init, headers: { ...this.configHeaders, ...headerRecord(init?.headers) } });

  /** Opens (or resumes) an event stream with a GET; a 405 means the server offers none. */
  private async openStream(options: StreamOptions): Promise<void> {
    const headers = await this.headers();
    headers.accept = "text/event-stream";
    if (options.resumptionToken !== undefined) headers["last-event-id"] = options.resumptionToken;
    const response = await fetchWithinOrigin(this.fetch, this.url, {
      method: "GET",
      headers,
      signal: this.abort?.signal ?? null,
    });
    if (!response.ok) {
      await discardBody(response);
      if (response.status === 401 && this.authProvider !== undefined) {
        await this.authorize(this.authProvider, this.authFetch);
        return this.openStream({ reconnectable: true });
      }
      if (response.status === 405) return;
      throw new HttpStatusError(
        response.status,
        `Failed to open SSE stream: ${unfollowedRedirect(response, this.url) ?? response.statusText}`,
      );
    }
    this.readStream(response, options);
  }

  /** Reads an event stream in the background, delivering its messages in order. */
  private readStream(response: Response, options: StreamOptions): void {
    void this.consumeStream(response, options);
  }

  private async consumeStream(response: Response, options: StreamOptions): Promise<void> {
    const reader = bodyReader(response);
    if (reader === undefined) return;
    // Written by `deliver`, read after the loop (a record: TypeScript does not see closures assign).
    const progress: { lastEventId: string | undefined; answered: boolean } = {
      lastEventId: undefined,
      answered: false,
    };
    const events: ServerSentEvent[] = [];
    const parser = new SseParser({
      onEvent: (event) => events.push(event),
      onRetry: (milliseconds) => {
        this.serverRetryMs = milliseconds;
      },
    });
    const deliver = async (): Promise<void> => {
      for (const event of events.splice(0)) {
        if (event.id !== undefined) {
          progress.lastEventId = event.id;
          options.onresumptiontoken?.(event.id);
        }
        if (event.data === "" || (event.type !== undefined && event.type !== "message")) continue;
        if (await this.deliverEvent(event.data, options)) progress.answered = true;
      }
    };
    try {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        parser.push(chunk.value);
        if (events.length > 0) await deliver();
      }
      parser.end();
      await deliver();
    } catch (error) {
      this.report(new Error(`SSE stream disconnected: ${String(error)}`, { cause: error }));
    }
    // A stream that ends before its response (or a standalone stream) is resumed where it broke.
    const resumable = options.reconnectable || progress.lastEventId !== undefined;
    if (resumable && !progress.answered && this.abort?.signal.aborted === false) {
      this.scheduleReconnection({ ...options, resumptionToken: progress.lastEventId }, 0);
    }
  }

  /** Delivers one event's message (a request with the request it belongs to); true when it was a response. */
  private async deliverEvent(data: string, stream: StreamOptions): Promise<boolean> {
    let checked;
    try {
      const pending = this.checkMessage(JSON.parse(data));
      checked = pending instanceof Promise ? await pending : pending;
    } catch (error) {
      this.report(error);
      return false;
    }
    if (!checked.success) {
      this.report(invalidMessage(checked.error));
      return false;
    }
    const message = checked.data;
    const isResponse = "id" in message && ("result" in message || "error" in message);
    const { replayMessageId, relatedRequestId } = stream;
    if (isResponse && replayMessageId !== undefined) (message as { id: RequestId }).id = replayMessageId;
    markResult(message);
    if (relatedRequestId !== undefined && "method" in message && "id" in message)
      this.onmessage?.(message, { relatedRequestId });
    else this.onmessage?.(message);
    return isResponse;
  }

  private async deliverJson(text: string): Promise<void> {
    const parsed = JSON.parse(text) as unknown;
    const messages = Array.isArray(parsed) ? (parsed as unknown[]) : [parsed];
    const checked = [];
    for (const value of messages) {
      const pending = this.checkMessage(value);
      const result = pending instanceof Promise ? await pending : pending;
      if (!result.success) throw invalidMessage(result.error);
      checked.push(result.data);
    }
    for (const message of checked) {
      markResult(message);
      this.onmessage?.(message);
    }
  }

  private scheduleReconnection(options: StreamOptions, attempt: number): void {
    const { maxRetries } = this.reconnection;
    if (attempt >= maxRetries) {
      this.report(new Error(`Maximum reconnection attempts (${maxRetries}) exceeded.`));
      return;
    }
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.openStream(options).catch((error: unknown) => {
        if (this.abort?.signal.aborted !== false) return;
        this.report(new Error(`Failed to reconnect SSE stream: ${describe(error)}`, { cause: error }));
        this.scheduleReconnection(options, attempt + 1);
      });
    }, this.reconnectionDelay(attempt));
  }

  /** The server's `retry` when it sent one, else exponential backoff up to the maximum. */
  private reconnectionDelay(attempt: number): number {
    if (this.serverRetryMs !== undefined) return this.serverRetryMs;
    const { initialDelayMs, growFactor, maxDelayMs } = this.reconnection;
    return Math.min(initialDelayMs * growFactor ** attempt, maxDelayMs);
  }

  /** The headers every request carries, the auth provider's token among them; the config's win over the transport's own. */
  private async headers(): Promise<Record<string, string>> {
    const tokens = await this.authProvider?.tokens();
    return this.ownHeaders(tokens === undefined ? undefined : `Bearer ${tokens.access_token}`);
  }

  /** The headers every request carries, with `authorization` when given; the config's win over the transport's own. */
  private ownHeaders(authorization?: string): Record<string, string> {
    const headers: Record<string, string> = {};
    if (authorization !== undefined) headers.authorization = authorization;
    if (this.session !== undefined) headers["mcp-session-id"] = this.session;
    if (this.protocolVersion !== undefined) headers["mcp-protocol-version"] = this.protocolVersion;
    return Object.assign(headers, this.configHeaders);
  }

  private report(error: unknown): void {
    this.onerror?.(error instanceof Error ? error : new Error(String(error)));
  }
}

/**
 * A response's `result` was parsed here from the body just read and no one else holds it: whoever
 * keeps it (tool discovery keeping thousands of schemas) may freeze it in place instead of copying.
 */
function markResult(message: JSONRPCMessage): void {
  if ("result" in message) markParsedFromWire(message.result);
}

function invalidMessage(cause: unknown): Error {
  return new Error(`The server sent a message that is not valid JSON-RPC: ${describe(cause)}`, { cause });
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isInitializedNotification(message: JSONRPCMessage | JSONRPCMessage[]): boolean {
  return (
    !Array.isArray(message) &&
    "method" in message &&
    message.method === "notifications/initialized" &&
    !("id" in message)
  );
}

/** The id of the message's request when it is the only one (a batch of several links its stream to none). */
function soleRequestId(message: JSONRPCMessage | JSONRPCMessage[]): RequestId | undefined {
  if (!Array.isArray(message)) return "method" in message && "id" in message ? message.id : undefined;
  const requests = message.filter((each) => "method" in each && "id" in each);
  return requests.length === 1 ? (requests[0] as { id: RequestId }).id : undefined;
}

function hasRequest(message: JSONRPCMessage | JSONRPCMessage[]): boolean {
  const messages = Array.isArray(message) ? message : [message];
  return messages.some((each) => "method" in each && "id" in each);
}

/** The media type of a Content-Type value, lower case, without parameters. */
function mediaTypeOf(contentType: string | null): string | undefined {
  if (contentType === null) return undefined;
  const semicolon = contentType.indexOf(";");
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}

function lowerCaseNames(headers: Readonly<Record<string, string>>): Record<string, string> {
  const lower: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) lower[name.toLowerCase()] = value;
  return lower;
}

function headerRecord(headers: RequestInit["headers"]): Record<string, string> {
  const record: Record<string, string> = {};
  if (headers === undefined) return record;
  new Headers(headers).forEach((value, name) => {
    record[name] = value;
  });
  return record;
}
