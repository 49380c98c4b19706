import type { Implementation } from "@modelcontextprotocol/sdk/types.js";
import { createSchemaValidator, type SchemaValidator } from "@mcp-tool-adapter/schema-validation";
import { positiveOr } from "./timeouts.js";
import type { Logger } from "./types.js";
import { ADAPTER_VERSION } from "./version.js";

const DEFAULT_CALL_TIMEOUT_MS = 60_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
const DEFAULT_CLOSE_TIMEOUT_MS = 5_000;
const DEFAULT_ABORTED_TASK_WAIT_MS = 5_000;
const DEFAULT_MAX_LIST_PAGES = 1_000;
const DEFAULT_CLIENT_INFO = Object.freeze({ name: "mcp-tool-adapter", version: ADAPTER_VERSION });

/** The adapter options that have a default (MCPToolAdapterOptions has them all). */
export interface SettingsInput {
  readonly validator?: SchemaValidator | undefined;
  readonly logger?: Logger | undefined;
  readonly now?: (() => number) | undefined;
  readonly defaultTimeoutMs?: number | undefined;
  readonly connectTimeoutMs?: number | undefined;
  readonly abortedTaskWaitMs?: number | undefined;
  readonly closeTimeoutMs?: number | undefined;
  readonly maxResultBytes?: number | undefined;
  readonly maxListPages?: number | undefined;
  readonly clientInfo?: Implementation | undefined;
}

/** The options with every default applied and every number clamped, worked out once per adapter. */
export interface AdapterSettings {
  readonly validator: SchemaValidator;
  readonly now: () => number;
  readonly defaultTimeoutMs: number;
  readonly connectTimeoutMs: number;
  readonly abortedTaskWaitMs: number;
  readonly closeTimeoutMs: number;
  readonly maxResultBytes: number | undefined;
  readonly maxListPages: number;
  readonly clientInfo: Implementation;
}

export function adapterSettings(options: SettingsInput): AdapterSettings {
  const { logger, maxResultBytes } = options;
  return {
    validator: options.validator ?? createSchemaValidator(logger === undefined ? {} : { logger }),
    // Bound, not wrapped: every call reads the clock, and a wrapper would be one more frame (and module) on that path.
    now: options.now ?? performance.now.bind(performance),
    defaultTimeoutMs: positiveOr(options.defaultTimeoutMs, DEFAULT_CALL_TIMEOUT_MS),
    connectTimeoutMs: positiveOr(options.connectTimeoutMs, DEFAULT_CONNECT_TIMEOUT_MS),
    closeTimeoutMs: positiveOr(options.closeTimeoutMs, DEFAULT_CLOSE_TIMEOUT_MS),
    abortedTaskWaitMs: positiveOr(options.abortedTaskWaitMs, DEFAULT_ABORTED_TASK_WAIT_MS),
    maxResultBytes: maxResultBytes === undefined ? undefined : positiveOr(maxResultBytes, Number.POSITIVE_INFINITY),
    maxListPages: Math.floor(positiveOr(options.maxListPages, DEFAULT_MAX_LIST_PAGES)),
    clientInfo: options.clientInfo ?? DEFAULT_CLIENT_INFO,
  };
}
