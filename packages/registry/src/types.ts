import type { Logger } from "@mcp-tool-adapter/core";
/** What a tool may do; the shape capability inference produces (extra fields are kept). */
export interface ToolCapabilities {
  readOnly: boolean;
  writes: boolean;
  destructive?: boolean;
  idempotent?: boolean;
  openWorld?: boolean;
}

/** The outcome of a call. Failures are results, not exceptions. */
export interface ToolCallResult {
  success: boolean;
  data?: unknown;
  error?: string;
  errorKind?: string;
  durationMs?: number;
}

export interface ToolCallContext {
  signal?: AbortSignal;
}

export type ToolHandler = (
  args: Record<string, unknown>,
  context: ToolCallContext,
) => ToolCallResult | Promise<ToolCallResult>;

/** What a source hands in; `name` is the local name, without the namespace. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  capabilities: ToolCapabilities;
  source: string;
  sourceMetadata: Record<string, unknown>;
  checkpointable: boolean;
  handler: ToolHandler;
}

/** A frozen snapshot of a definition, as the registry holds it. `name` is `"namespace/local"`. */
export interface RegisteredTool extends Readonly<ToolDefinition> {
  readonly name: string;
  readonly namespace: string;
  readonly localName: string;
}

/** What a mutation did, by full names. `namespace` is set when one namespace was touched. */
export interface RegistryChange {
  namespace?: string;
  added: string[];
  removed: string[];
  changed: string[];
}

export type RegistryListener = (change: RegistryChange) => void;

export interface ToolListFilter {
  namespace?: string;
  source?: string;
}

export type { Logger };

export interface ToolRegistryOptions {
  /** Receives listener failures (warn). Without one they are dropped so the registry keeps working. */
  logger?: Logger;
  /** Monotonic clock in ms for `durationMs`; default `performance.now`. */
  now?: () => number;
}
