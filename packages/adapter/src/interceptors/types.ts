import type { ToolCapabilities } from "@mcp-tool-adapter/registry";
import type { MCPToolDescriptor, MCPToolResult } from "../types.js";

/** One tool call as an interceptor sees it; a new object per stage, never shared between calls. */
export interface ToolCallInfo {
  readonly serverName: string;
  readonly toolName: string;
  /** The tool as discovered (frozen). */
  readonly tool: MCPToolDescriptor;
  /** Inferred from the tool's annotations and name, with the adapter's `capabilityOverrides` applied. */
  readonly capabilities: ToolCapabilities;
  /** The arguments the call will send (after earlier interceptors' rewrites). */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** What goes to the server in `params._meta` (after earlier interceptors' rewrites). */
  readonly meta: Readonly<Record<string, unknown>>;
  /** Aborted when this interceptor's time is up or the caller cancels the call. */
  readonly signal: AbortSignal;
}

/**
 * What `beforeCall` decides: nothing (go on unchanged), new arguments and/or `_meta` (each
 * replaces the whole value), or a refusal whose reason becomes the call's error.
 */
export type BeforeCallDecision =
  // A hook that returns nothing (void) lets the call go on unchanged.
  // eslint-disable-next-line @typescript-eslint/no-invalid-void-type
  | void
  | undefined
  | { readonly arguments?: Record<string, unknown>; readonly meta?: Record<string, unknown> }
  | { readonly refuse: string };

type MaybePromise<T> = T | Promise<T>;

/**
 * A hook around every tool call of an adapter (or of every server of a set). `beforeCall` hooks
 * run in the given order, `afterCall` / `onError` in reverse (the first interceptor sees the
 * final result). A hook that throws or outlives `timeoutMs` fails that call (errorKind
 * "interceptor_failed"); it never throws out of `invoke`.
 */
export interface ToolCallInterceptor {
  /** Named in every message about this interceptor. */
  readonly name: string;
  /** Time each hook of this interceptor may take. Default 10000 ms (an approval prompt wants more). */
  readonly timeoutMs?: number;
  beforeCall?(call: ToolCallInfo): MaybePromise<BeforeCallDecision>;
  /** Sees every successful result; returns a replacement, or nothing to keep it. */
  // eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- returning nothing keeps the result
  afterCall?(call: ToolCallInfo, result: MCPToolResult): MaybePromise<MCPToolResult | void | undefined>;
  /** Sees every failed result (refusals included); returns a replacement, or nothing to keep it. */
  // eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- returning nothing keeps the result
  onError?(call: ToolCallInfo, result: MCPToolResult): MaybePromise<MCPToolResult | void | undefined>;
}
