import type { ServerFailure, ServerFailureKind } from "./types.js";

const KIND_BY_CODE: Readonly<Record<string, ServerFailureKind>> = {
  CONFIG_INVALID: "config_invalid",
  INVALID_CONFIG: "config_invalid",
  SPAWN_FAILED: "spawn_failed",
  SERVER_EXITED: "server_exited",
  AUTH_FAILED: "auth_failed",
  DISCOVERY_FAILED: "discovery_failed",
  INVALID_NAME: "registration_failed",
  DUPLICATE_TOOL: "registration_failed",
  INVALID_TOOL: "registration_failed",
  SERVER_NAME_INVALID: "config_invalid",
  SERVER_TIMEOUT: "timeout",
};

/** The SDK's JSON-RPC code for a request that timed out (also used for its aborted requests). */
const REQUEST_TIMEOUT = -32001;

/**
 * Classifies a server failure by walking the cause chain: the deepest specific cause wins
 * (a SPAWN_FAILED under a CONNECTION_FAILED is a spawn failure, reported with code SPAWN_FAILED
 * even though Node's ENOENT sits under it), a timeout anywhere is a timeout, and a bare
 * CONNECTION_FAILED is a connection failure.
 */
export function classifyServerFailure(error: unknown, fallback: ServerFailureKind = "unknown"): ServerFailure {
  const chain = causeChain(error);
  const message = chain.length > 0 && chain[0] instanceof Error ? chain[0].message : String(error);
  let kind: ServerFailureKind | undefined;
  // The deepest code that classifies the failure (SPAWN_FAILED, not the ENOENT under it); else the deepest code.
  let classifiedCode: string | undefined;
  let deepestCode: string | undefined;
  for (const link of chain) {
    const linkCode = (link as { code?: unknown } | null)?.code;
    if (typeof linkCode === "string") {
      deepestCode = linkCode;
      const linkKind = KIND_BY_CODE[linkCode];
      if (linkKind !== undefined) {
        kind = linkKind;
        classifiedCode = linkCode;
      }
    }
    if (isTimeout(link)) {
      kind = "timeout";
      break;
    }
  }
  if (kind === undefined && chain.some((link) => (link as { code?: unknown } | null)?.code === "CONNECTION_FAILED"))
    kind = "connection_failed";
  const code = classifiedCode ?? deepestCode;
  return { kind: kind ?? fallback, ...(code === undefined ? {} : { code }), message, error };
}

function isTimeout(value: unknown): boolean {
  if (!(value instanceof Error)) return false;
  if (value.name === "TimeoutError" || (value as { code?: unknown }).code === REQUEST_TIMEOUT) return true;
  return /\btimed out\b/i.test(value.message);
}

function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && !chain.includes(current) && chain.length < 10) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}
