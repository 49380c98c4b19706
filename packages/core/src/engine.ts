import { MCPToolAdapterError, type MCPToolAdapterErrorOptions } from "./error-base.js";

/**
 * The engine seam: what the adapter needs from an MCP client library, in plain types, so that
 * one adapter runs on SDK 1.x (the default engine, inside `@mcp-tool-adapter/adapter`) or on
 * `@modelcontextprotocol/client` 2.x (`@mcp-tool-adapter/engine-2026`). No SDK object crosses
 * it: requests, results and notifications are plain JSON-RPC values.
 */

/** Which protocol era a server config asks for (`protocol` in a server config). */
export type MCPProtocolSetting = "auto" | "2025" | "2026-07-28";

/** The era a connection ended up speaking: the 2025 handshake, or revision 2026-07-28. */
export type MCPProtocolEra = "2025" | "2026-07-28";

export const MCP_PROTOCOL_SETTINGS: readonly MCPProtocolSetting[] = Object.freeze(["auto", "2025", "2026-07-28"]);

/**
 * The JSON-RPC codes an engine rejects with when a request timed out (or was aborted: the caller
 * tells the two apart by its own signal) and when the connection closed under it. SDK 1.x's own
 * codes, so that both engines report these the same way.
 */
export const RPC_REQUEST_TIMEOUT = -32001;
export const RPC_CONNECTION_CLOSED = -32000;

/** A server's progress report for a request (or a tool call). */
export interface MCPProgress {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * How one request is sent. The names are those of the SDK's RequestOptions on purpose: the
 * adapter builds these on every tool call, and an engine on either SDK passes them on as is.
 */
export interface MCPEngineRequestOptions {
  /** Milliseconds before the request fails with RPC_REQUEST_TIMEOUT. */
  timeout?: number;
  /** Each progress report restarts `timeout`. */
  resetTimeoutOnProgress?: boolean;
  /** With `resetTimeoutOnProgress`: milliseconds the request may take in all. */
  maxTotalTimeout?: number;
  onprogress?: (progress: MCPProgress) => void;
  /** Aborting it cancels the request (the server is told). */
  signal?: AbortSignal;
  /**
   * On a 2026-07-28 connection: a `tools/call` answered with `input_required` resolves with that
   * result as it is (`resultType`, `inputRequests`, `requestState`), instead of the engine
   * answering its embedded requests with the handlers and retrying. Ignored on 2025.
   */
  allowInputRequired?: boolean;
  /**
   * The host's own value for this request, never sent. A request the server sends that the
   * transport links to this one (see MCPIncomingMessageExtra) reaches its handler with this value
   * as `context.relatedTag`, so the host knows which of its requests the server is asking about.
   */
  tag?: unknown;
}

/** A JSON-RPC request or notification: a method and its params. */
export interface MCPEngineMessage {
  method: string;
  params?: Record<string, unknown>;
}

/** What a handler of a server-to-client request (elicitation, sampling, roots) is given besides the params. */
export interface MCPEngineRequestContext {
  /** Aborted when the server cancels the request or the connection closes. */
  readonly signal: AbortSignal;
  /**
   * The `tag` of the host's request this server request belongs to (MCPEngineRequestOptions.tag),
   * when the transport linked the two and that request is still in flight; undefined when nothing
   * links them (stdio, legacy SSE, a streamable HTTP server's standalone GET stream) or the
   * engine does not follow links.
   */
  readonly relatedTag?: unknown;
}

/**
 * What a client transport adds to the `extra` of a message it hands to `onmessage(message, extra)`
 * (beside SDK 1.x's MessageExtraInfo fields), when the wire ties a server's request to one of the
 * client's: over streamable HTTP, a request the server sends on the response stream of a POST
 * belongs to the request that POST carried. Nothing else in a server's request says which of the
 * client's requests it is about.
 */
export interface MCPIncomingMessageExtra {
  /** The JSON-RPC id of the client's request whose response stream carried this message. */
  readonly relatedRequestId?: string | number;
}

/**
 * Answers a server-to-client request: resolves with the result, or rejects with an MCPProtocolError
 * (its `rpcCode` and message are what the server is told). The engine turns that error into its
 * SDK's own: a JSON-RPC error on the 2025 wire, and on 2026-07-28, where the request came embedded
 * in an `input_required` result, the failure of the request that carried it.
 */
export type MCPEngineRequestHandler = (
  params: Readonly<Record<string, unknown>>,
  context: MCPEngineRequestContext,
) => unknown;

/** What the host hears from a connection. Each is called synchronously; none may throw. */
export interface MCPEngineListeners {
  /** A notification from the server (`notifications/tools/list_changed`, `notifications/message`, ...). */
  notification(message: MCPEngineMessage): void;
  /** The connection closed, whoever closed it. */
  closed(): void;
  /** A transport or protocol error that did not fail a request (for logs). */
  error(error: Error): void;
}

/** A server's capabilities, as declared in `initialize` or `server/discover`. */
export interface MCPServerCapabilities {
  readonly tools?: { readonly listChanged?: boolean; readonly [key: string]: unknown };
  readonly resources?: {
    readonly subscribe?: boolean;
    readonly listChanged?: boolean;
    readonly [key: string]: unknown;
  };
  readonly prompts?: { readonly listChanged?: boolean; readonly [key: string]: unknown };
  readonly logging?: object;
  readonly completions?: object;
  readonly [key: string]: unknown;
}

/** A server's (or client's) name and version. */
export interface MCPImplementation {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
  readonly [key: string]: unknown;
}

/** The server config an engine connects to: the adapter's validated config, read structurally. */
export interface MCPEngineServer {
  readonly name: string;
  readonly transport: string;
  readonly protocol?: MCPProtocolSetting;
  readonly [key: string]: unknown;
}

/**
 * OAuth for an HTTP server, for an engine that builds its own transports (engine-2026): an SDK
 * 1.x-shaped `OAuthClientProvider` such as `@mcp-tool-adapter/oauth`'s `NodeOAuthClientProvider`.
 * The engine reads it structurally, by its plain methods (and those of StepUpAuthProvider), so
 * no SDK type crosses the seam. The default engine ignores it: its transport carries the provider.
 */
export type MCPEngineAuthProvider = object;

export interface MCPEngineConnectRequest {
  readonly server: MCPEngineServer;
  /** OAuth for an `sse` or `streamable-http` server (see {@link MCPEngineAuthProvider}). */
  readonly authProvider?: MCPEngineAuthProvider;
  readonly clientInfo: MCPImplementation;
  /** The client capabilities to declare (elicitation, sampling, roots). */
  readonly capabilities: Readonly<Record<string, unknown>>;
  /** Handlers of the server-to-client requests, by method (`elicitation/create`, `sampling/createMessage`, `roots/list`). */
  readonly requestHandlers: Readonly<Record<string, MCPEngineRequestHandler>>;
  readonly listeners: MCPEngineListeners;
  /** The whole connect (transport start, handshake or discovery) must end within this. */
  readonly timeoutMs: number;
  /** Aborted when the host gives up on the connect; the engine then closes what it started. */
  readonly signal: AbortSignal;
}

/** One live connection. Never reused after it closes. */
export interface MCPEngineConnection {
  readonly era: MCPProtocolEra;
  /** The negotiated revision, e.g. "2025-11-25" or "2026-07-28". */
  readonly protocolVersion: string | undefined;
  readonly serverCapabilities: MCPServerCapabilities | undefined;
  readonly serverInfo: MCPImplementation | undefined;
  readonly instructions: string | undefined;
  /** The HTTP session id, on a 2025 streamable HTTP connection that has one. */
  readonly sessionId: string | undefined;
  /**
   * Sends a request and resolves with its raw result. Rejects with an error carrying a numeric
   * JSON-RPC `code` (an MCPProtocolError, or the SDK's own error on the default engine) when the
   * server or the protocol said no, or with the transport's error when the connection is gone.
   */
  request(request: MCPEngineMessage, options?: MCPEngineRequestOptions): Promise<unknown>;
  notify(notification: MCPEngineMessage): Promise<void>;
  /**
   * Optional. Rejects every request in flight with `error` at once and forgets them (a response
   * that comes later is dropped; the server is not told, as the connection is closing). The host
   * calls it when it gives up on the connection, ahead of a close the transport may report late
   * or never. An engine that has it must also remove its listener from a request's `signal` when
   * the request settles; the host then sends requests to it as they are, with no wrapper promise.
   */
  abandonRequests?(error: Error): void;
  /**
   * Optional. Ends the server's session before a close on purpose: on a 2025-era streamable HTTP
   * connection the `DELETE` with its `Mcp-Session-Id` (2025-03-26 "Session Management"); nothing on
   * a connection without a session (stdio, SSE, 2026-07-28). The host calls it once, only when it
   * closes on purpose (disconnect, reconnect), never when the connection was lost, and calls
   * `close()` after it whatever it did: the host bounds it and ignores its failure.
   */
  endSession?(): Promise<void>;
  /** Closes the connection (and reaps what the transport started); safe to call twice. */
  close(): Promise<void>;
}

/** A way of speaking MCP: makes connections for the adapter. */
export interface MCPEngine {
  /** Names the engine in messages, e.g. "@mcp-tool-adapter/engine-2026". */
  readonly name: string;
  /** The `protocol` settings it honours; the adapter refuses a config asking for another. */
  readonly protocols: readonly MCPProtocolSetting[];
  /** Opens one connection; rejects with why it could not (the adapter wraps it in MCPConnectionError). */
  connect(request: MCPEngineConnectRequest): Promise<MCPEngineConnection>;
}

/**
 * A JSON-RPC error an engine reports in plain terms: the server answered a request with an error,
 * or the protocol layer gave up on it (RPC_REQUEST_TIMEOUT, RPC_CONNECTION_CLOSED).
 */
export class MCPProtocolError extends MCPToolAdapterError<"PROTOCOL_ERROR"> {
  static override readonly errorName: string = "MCPProtocolError";
  /** The JSON-RPC error code. */
  readonly rpcCode: number;
  /** The error's `data`, when it had any. */
  readonly data: unknown;

  constructor(rpcCode: number, message: string, options: MCPToolAdapterErrorOptions & { data?: unknown } = {}) {
    super("PROTOCOL_ERROR", message, options);
    this.rpcCode = rpcCode;
    this.data = options.data;
  }
}
