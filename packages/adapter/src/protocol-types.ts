import type {
  CompleteResult,
  GetPromptResult,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
} from "@modelcontextprotocol/sdk/types.js";
import type { MCPToolErrorKind } from "./types.js";

/** A resource as the server listed it (frozen). */
export type MCPResource = Readonly<Resource>;
/** A resource template (RFC 6570 `uriTemplate`) as the server listed it (frozen). */
export type MCPResourceTemplate = Readonly<ResourceTemplate>;
/** A prompt as the server listed it, with its declared arguments (frozen). */
export type MCPPrompt = Readonly<Prompt>;
/** What `resources/read` returned: text items carry `text`, binary ones base64 `blob`. */
export type MCPResourceContents = ReadResourceResult;
/** What `prompts/get` returned: the prompt's messages. */
export type MCPPromptMessages = GetPromptResult;
/** What `completion/complete` returned: suggested values for the argument. */
export type MCPCompletion = CompleteResult["completion"];
/** The MCP log levels, least to most severe. */
export type MCPLogLevel = LoggingLevel;

/**
 * Why a resource, prompt, completion or log-level request failed: the tool kinds, plus
 * "not_supported" when the server did not declare the capability the request needs.
 */
export type MCPRequestErrorKind = MCPToolErrorKind | "not_supported";

/** The outcome of a request the caller's input or the server can make fail: a result, never a throw. */
export type MCPRequestResult<T> =
  | { success: true; data: T; error: null; durationMs: number; errorKind?: undefined }
  | { success: false; data: null; error: string; durationMs: number; errorKind: MCPRequestErrorKind };

export interface MCPRequestOptions {
  /** Deadline for this request. Default: the adapter's defaultTimeoutMs. */
  timeoutMs?: number;
  /** Aborting it cancels the request (errorKind "cancelled"). */
  signal?: AbortSignal;
}

/** What a completion is for: a prompt's argument or a resource template's variable. */
export type MCPCompletionReference = { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };

export interface MCPCompleteOptions extends MCPRequestOptions {
  /** Values already chosen for the other arguments, which some servers use to narrow the suggestions. */
  context?: Readonly<Record<string, string>>;
}

/** Sent after the server's resource (or template) list changed and the adapter listed it again. */
export interface ResourcesChangedEvent {
  serverName: string;
  resources: readonly MCPResource[];
  resourceTemplates: readonly MCPResourceTemplate[];
}
export type ResourcesChangedListener = (event: ResourcesChangedEvent) => void;

/** Sent after the server's prompt list changed and the adapter listed it again. */
export interface PromptsChangedEvent {
  serverName: string;
  prompts: readonly MCPPrompt[];
}
export type PromptsChangedListener = (event: PromptsChangedEvent) => void;

/** The server said a subscribed resource changed; read it again to see how. */
export interface ResourceUpdatedEvent {
  serverName: string;
  uri: string;
}
export type ResourceUpdatedListener = (event: ResourceUpdatedEvent) => void;

/** One `notifications/message` from the server. */
export interface MCPServerLogEntry {
  serverName: string;
  level: MCPLogLevel;
  /** The server's name for the part of it that logged, when it gave one. */
  logger?: string;
  data: unknown;
}
export type ServerLogListener = (entry: MCPServerLogEntry) => void;

/** An active resource subscription. */
export interface MCPResourceSubscription {
  readonly uri: string;
  /** Stops the listener and, when it was the last one for the URI, tells the server. */
  unsubscribe(): Promise<MCPRequestResult<null>>;
}
