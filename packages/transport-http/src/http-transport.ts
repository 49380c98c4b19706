import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, MessageExtraInfo, RequestId } from "@modelcontextprotocol/sdk/types.js";
import {
  cutOffByProxy,
  describeCause,
  MESSAGE_TOO_LARGE,
  MESSAGE_TOO_LARGE_ERROR_CODE,
  type MCPProtocolError,
} from "@mcp-tool-adapter/core";
import { classifyFailure, type FailureContext } from "./classify.js";
import { HttpTransportError, type HttpTransportKind } from "./errors.js";
import type { GuardedFetch } from "./guarded-fetch.js";
import type { Logger } from "./logger.js";
import { redactSecrets } from "./redact.js";
import { isSdkError } from "./sdk-errors.js";
import { HttpStatusError } from "./status-error.js";

/** What a client transport (ours for streamable HTTP, SDK 1.x's for SSE) offers beyond the base Transport interface. */
type SdkHttpTransport = Transport & { terminateSession?(): Promise<void> };

export interface HttpTransportContext {
  transport: HttpTransportKind;
  /** Display form of the endpoint (no userinfo, no query). */
  url: string;
  secrets: Set<string>;
  guard: GuardedFetch;
  logger?: Logger;
  /**
   * True once after the auth provider ran a login with a human (e.g. @mcp-tool-adapter/oauth's
   * interactive mode): the SDK reports that as "unauthorized", but the request may now be sent again.
   */
  takeFreshLogin?: () => boolean;
}

/**
 * An SDK HTTP client transport behind one front: every failure it raises or reports becomes a
 * classified HttpTransportError without secrets, reported once through `onerror` and thrown
 * from the `start` / `send` that failed.
 */
export class HttpTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  readonly transportType: HttpTransportKind;
  /** The endpoint as it may be shown: without userinfo or query. */
  readonly url: string;

  private readonly inner: SdkHttpTransport;
  private readonly context: HttpTransportContext;
  private readonly classified = new WeakMap<object, HttpTransportError>();
  private readonly reported = new WeakSet<HttpTransportError>();
  private started = false;
  private closed = false;
  private silentClose = false;
  private sendsInFlight = 0;
  /** Notifications handed over and not yet settled: the DELETE that ends the session waits for them. */
  private readonly notificationsInFlight = new Set<Promise<void>>();
  /** terminateSession() or close() was called: the host is ending the session on purpose. */
  private endingOnPurpose = false;

  constructor(inner: SdkHttpTransport, context: HttpTransportContext) {
    this.inner = inner;
    this.context = context;
    this.transportType = context.transport;
    this.url = context.url;
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => this.onmessage?.(message, extra);
    this.inner.onerror = (error) => this.handleInnerError(error);
    this.inner.onclose = () => {
      this.closed = true;
      if (!this.silentClose) this.onclose?.();
    };
    this.log("debug", `${this.label} connecting to ${this.url}`);
    try {
      await this.inner.start();
      this.started = true;
    } catch (error) {
      const failure = this.toError(error, "connect");
      this.report(failure);
      // The SSE library would keep reconnecting in the background after a failed start.
      await this.closeQuietly();
      throw failure;
    }
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.closed) {
      throw new HttpTransportError(
        "NOT_CONNECTED",
        `${this.label} transport to ${this.url} is closed; connect again to send.`,
        {
          transport: this.transportType,
          url: this.url,
        },
      );
    }
    if (isNotification(message)) {
      await this.sendNotification(message, options);
      return;
    }
    try {
      await this.sendOnceMoreAfterLogin(message, options);
    } catch (error) {
      throw this.reportedSendFailure(message, error);
    }
  }

  /**
   * A notification (among them the `notifications/cancelled` for each call a disconnect gives
   * up on) is tracked until it settles, so that the DELETE ending the session goes after it: sent
   * alongside, it may reach a server that already ended the session. One that fails once the host
   * is ending the session (a 404 from a server that ended it, or aborted by the close) is what
   * that close does, not a failure to report.
   */
  private async sendNotification(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const sending = this.sendOnceMoreAfterLogin(message, options);
    this.notificationsInFlight.add(sending);
    try {
      await sending;
    } catch (error) {
      if (this.endingOnPurpose) {
        this.log("debug", `${this.label} notification not delivered: the session is being ended`);
        return;
      }
      throw this.reportedSendFailure(message, error);
    } finally {
      this.notificationsInFlight.delete(sending);
    }
  }

  /** A send's failure, classified and reported once: what send() throws. */
  private reportedSendFailure(message: JSONRPCMessage, error: unknown): Error {
    const failure = this.toError(error, "request");
    this.report(failure);
    return cutOffRequest(message, error, failure) ?? failure;
  }

  private async sendOnceMoreAfterLogin(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.sendsInFlight++;
    try {
      await this.inner.send(message, options);
    } catch (error) {
      if (this.context.takeFreshLogin?.() !== true) throw error;
      await this.inner.send(message, options);
    } finally {
      this.sendsInFlight--;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.endingOnPurpose = true;
    await this.inner.close();
  }

  /**
   * Ends the server-side session (streamable HTTP only; a no-op elsewhere, and once closed: the
   * close aborted what the DELETE would need, and a closed transport sends nothing). The
   * notifications already handed over settle first, so the server still knows the session they
   * name; how long that may take is the caller's budget (the adapter's close aborts them both).
   */
  async terminateSession(): Promise<void> {
    if (this.inner.terminateSession === undefined || this.closed) return;
    this.endingOnPurpose = true;
    if (this.notificationsInFlight.size > 0) {
      await Promise.allSettled(this.notificationsInFlight);
      // The close may have come while they settled (the caller's budget ran out): no DELETE then.
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- close() sets it during the await
      if (this.closed) return;
    }
    try {
      await this.inner.terminateSession();
    } catch (error) {
      const failure = this.toError(error, "request");
      this.report(failure);
      throw failure;
    }
  }

  /** Closes without telling `onclose`; used when a fallback replaces this transport. */
  async closeQuietly(): Promise<void> {
    this.silentClose = true;
    this.closed = true;
    await this.inner.close().catch(() => undefined);
  }

  /**
   * A server-sent event over `maxMessageBytes`. The requests whose response stream carried it
   * fail with a JSON-RPC error instead of waiting for their timeout; an oversized event on a
   * standalone stream leaves the session unusable, so the transport closes.
   */
  handleOversizedEvent(error: HttpTransportError, requestBody: string | undefined): void {
    this.report(error);
    const ids = requestIdsOf(requestBody);
    if (ids.length === 0) {
      void this.close().catch(() => undefined);
      return;
    }
    for (const id of ids) {
      this.onmessage?.({
        jsonrpc: "2.0",
        id,
        error: {
          code: MESSAGE_TOO_LARGE_ERROR_CODE,
          message: error.message,
          data: { reason: MESSAGE_TOO_LARGE, code: error.code },
        },
      });
    }
  }

  private get label(): string {
    return this.transportType === "sse" ? "SSE" : "Streamable HTTP";
  }

  private handleInnerError(error: Error): void {
    if (this.closed) return;
    // An oversized event was reported already; the SDK's follow-up "stream disconnected" is noise.
    if (describeCause(error).includes("exceeds maxMessageBytes")) return;
    // The SDK reports "unauthorized" before it throws it from send(); after a login with a human
    // the send is retried, and send() reports the error itself if it stays a failure.
    if (isSdkError(error, "UnauthorizedError") && this.sendsInFlight > 0 && this.context.takeFreshLogin !== undefined)
      return;
    const phase = this.started ? "stream" : "connect";
    this.report(this.toError(error, phase));
    // The legacy SSE stream carries every response: once it drops, the session is gone (the
    // SSE library's reconnect would open a new, uninitialized session), so close.
    if (this.started && this.transportType === "sse") void this.close().catch(() => undefined);
  }

  private toError(error: unknown, phase: FailureContext["phase"]): HttpTransportError {
    if (typeof error === "object" && error !== null) {
      const known = this.classified.get(error);
      if (known !== undefined) return known;
    }
    const failure = classifyFailure(error, {
      transport: this.transportType,
      url: this.url,
      phase,
      secrets: this.context.secrets,
      lastNetworkError: this.context.guard.lastNetworkError,
    });
    if (typeof error === "object" && error !== null) this.classified.set(error, failure);
    return failure;
  }

  private report(error: HttpTransportError): void {
    if (this.reported.has(error)) return;
    this.reported.add(error);
    if (this.closed && error.code === "ABORTED") return;
    this.log("warn", error.message, { code: error.code, status: error.status });
    this.onerror?.(error);
  }

  private log(level: "debug" | "warn", message: string, data?: Record<string, unknown>): void {
    const logger = this.context.logger;
    if (logger === undefined) return;
    const safe = redactSecrets(message, this.context.secrets);
    if (data === undefined) logger[level]?.(safe);
    else
      logger[level]?.(
        safe,
        JSON.parse(redactSecrets(JSON.stringify(data), this.context.secrets)) as Record<string, unknown>,
      );
  }
}

/**
 * A request POST answered by a proxy's 502, 503 or 504 without a JSON-RPC answer was cut off
 * between us and the server: it fails as a connection lost in flight, by core's rule, as on
 * engine-2026 (the adapter's recovery then sends it again only when that is safe). `onerror` still
 * hears the classified SERVER_ERROR. Not `initialize`: a handshake cut off is a connect that failed,
 * with nothing in flight to decide about, and it stays the SERVER_ERROR that says its HTTP status.
 */
function cutOffRequest(
  message: JSONRPCMessage,
  error: unknown,
  failure: HttpTransportError,
): MCPProtocolError | undefined {
  if (!("method" in message && "id" in message) || message.method === "initialize") return undefined;
  if (!(error instanceof HttpStatusError) || error.body === undefined) return undefined;
  return cutOffByProxy({ status: error.status, text: error.body, detail: failure.message, cause: failure });
}

/** A message that is a notification: a method and no id (no answer is waited for). */
function isNotification(message: JSONRPCMessage): boolean {
  return "method" in message && !("id" in message);
}

function requestIdsOf(body: string | undefined): RequestId[] {
  if (body === undefined) return [];
  try {
    const parsed = JSON.parse(body) as unknown;
    const messages: unknown[] = Array.isArray(parsed) ? parsed : [parsed];
    return messages.flatMap((message) => {
      const candidate = message as { id?: unknown; method?: unknown };
      return typeof candidate.method === "string" &&
        (typeof candidate.id === "string" || typeof candidate.id === "number")
        ? [candidate.id]
        : [];
    });
  } catch {
    return [];
  }
}
