import { AUTH_FAILED, AUTH_REQUIRED, describeCause, MCPToolAdapterError } from "@mcp-tool-adapter/core";
import { HttpTransportError, type HttpTransportErrorCode, type HttpTransportKind } from "./errors.js";
import { redactSecrets } from "./redact.js";
import { isSdkError } from "./sdk-errors.js";
import { HttpStatusError } from "./status-error.js";

export interface FailureContext {
  transport: HttpTransportKind;
  /** Display form of the endpoint (no userinfo, no query). */
  url: string;
  /** "connect" while starting, "request" for a send, "stream" for a server-to-client stream. */
  phase: "connect" | "request" | "stream";
  secrets: ReadonlySet<string>;
  /** The last network error our fetch saw; the SSE library flattens errors to strings. */
  lastNetworkError?: unknown;
}

const TRANSPORT_LABEL: Record<HttpTransportKind, string> = { sse: "SSE", "streamable-http": "Streamable HTTP" };
const PHASE_LABEL: Record<FailureContext["phase"], string> = {
  connect: "connection to",
  request: "request to",
  stream: "event stream from",
};

/** Turns whatever the SDK transport or fetch threw into a classified, secret-free HttpTransportError. */
export function classifyFailure(error: unknown, context: FailureContext): HttpTransportError {
  if (HttpTransportError.isInstance(error)) return error;
  const where = `${TRANSPORT_LABEL[context.transport]} ${PHASE_LABEL[context.phase]} ${context.url}`;
  const cause = redactError(error, context.secrets);
  const detail = redactSecrets(describeCause(error), context.secrets);
  const make = (
    code: HttpTransportErrorCode,
    message: string,
    status?: number,
    causeOverride?: unknown,
  ): HttpTransportError =>
    new HttpTransportError(code, message, {
      transport: context.transport,
      url: context.url,
      ...(status === undefined ? {} : { status }),
      cause: causeOverride ?? cause,
    });

  // An auth provider's own verdict (e.g. @mcp-tool-adapter/oauth's "needs a login") already says
  // what to do; it keeps its code and words, with the endpoint in front.
  if (MCPToolAdapterError.isInstance(error) && (error.code === AUTH_REQUIRED || error.code === AUTH_FAILED)) {
    return make(error.code, `${capitalize(where)} needs authorization: ${detail}`);
  }
  if (isSdkError(error, "UnauthorizedError")) {
    return make("AUTH_FAILED", `Authentication failed for ${where}: ${detail}. ${AUTH_ADVICE}`);
  }

  const status = statusOf(error);
  if (status !== undefined) return classifyStatus(status, where, detail, make);

  if (isAbort(error)) {
    return make("ABORTED", `${capitalize(where)} was aborted because the transport was closed.`);
  }

  // The SSE library reports network failures as a flattened string; the fetch error itself
  // was seen by our fetch wrapper and is the better cause.
  const network =
    networkErrorCode(error) ?? (isSdkError(error, "SseError") ? networkErrorCode(context.lastNetworkError) : undefined);
  if (
    network !== undefined ||
    isFetchFailure(error) ||
    (isSdkError(error, "SseError") && isFetchFailure(context.lastNetworkError))
  ) {
    const networkCause =
      network !== undefined && networkErrorCode(error) === undefined
        ? redactError(context.lastNetworkError, context.secrets)
        : undefined;
    return make(
      "CONNECTION_FAILED",
      `${capitalize(where)} failed: ${describeNetworkFailure(network, detail)}`,
      undefined,
      networkCause,
    );
  }

  if (error instanceof HttpStatusError && error.status === -1) {
    return make(
      "UNEXPECTED_RESPONSE",
      `${capitalize(where)} got a response it cannot use: ${detail}. Check that the URL is an MCP endpoint.`,
    );
  }
  if (describeCause(error) === "Not connected") {
    return make(
      "NOT_CONNECTED",
      `${capitalize(where)} failed: the transport is not connected. Call start() (or connect the client) first.`,
    );
  }
  return make("TRANSPORT_ERROR", `${capitalize(where)} failed: ${detail}`);
}

const AUTH_ADVICE =
  "Check the credentials in the server config (the Authorization header or token), or pass an authProvider for OAuth.";

function classifyStatus(
  status: number,
  where: string,
  detail: string,
  make: (code: HttpTransportErrorCode, message: string, status?: number) => HttpTransportError,
): HttpTransportError {
  const server = ` Server said: ${truncate(detail)}`;
  if (status === 401) {
    return make(
      "AUTH_FAILED",
      `Authentication failed (HTTP 401) for ${where}: the server did not accept the credentials. ${AUTH_ADVICE}${server}`,
      status,
    );
  }
  if (status === 403) {
    return make(
      "AUTH_FAILED",
      `Authorization failed (HTTP 403) for ${where}: the credentials were accepted but do not grant access. Check the token's scopes or permissions.${server}`,
      status,
    );
  }
  if (status >= 500 && status <= 599) {
    return make(
      "SERVER_ERROR",
      `${capitalize(where)} failed with HTTP ${status} (server error). The server is failing; check its logs or retry later.${server}`,
      status,
    );
  }
  if (status === 404) {
    return make(
      "NOT_FOUND",
      `${capitalize(where)} failed with HTTP 404: no MCP endpoint at this path. Check the URL's path.${server}`,
      status,
    );
  }
  if (status === 405) {
    return make(
      "METHOD_NOT_ALLOWED",
      `${capitalize(where)} failed with HTTP 405: the endpoint does not accept this method. Check the URL and the transport type (sse or streamable-http).${server}`,
      status,
    );
  }
  if (status >= 400 && status <= 499) {
    return make(
      "CLIENT_ERROR",
      `${capitalize(where)} was rejected with HTTP ${status}. Check the URL, headers and transport type.${server}`,
      status,
    );
  }
  return make(
    "UNEXPECTED_RESPONSE",
    `${capitalize(where)} got an unexpected HTTP ${status}. Check that the URL is an MCP endpoint.${server}`,
    status,
  );
}

function statusOf(error: unknown): number | undefined {
  if (error instanceof HttpStatusError || isSdkError(error, "SseError")) {
    const code = error instanceof HttpStatusError ? error.status : (error as { code?: unknown }).code;
    return typeof code === "number" && code >= 100 && code <= 599 ? code : undefined;
  }
  // The legacy SSE transport throws a plain Error for a failed POST.
  const match = /^Error POSTing to endpoint \(HTTP (\d{3})\)/.exec(describeCause(error));
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EAI_FAIL",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
]);

/** The first network error code in an error's cause chain (and AggregateError members). */
function networkErrorCode(error: unknown, depth = 0): string | undefined {
  if (typeof error !== "object" || error === null || depth > 5) return undefined;
  const { code, cause, errors, name } = error as { code?: unknown; cause?: unknown; errors?: unknown; name?: unknown };
  if (typeof code === "string" && NETWORK_CODES.has(code)) return code;
  if (name === "TimeoutError") return "ETIMEDOUT";
  if (Array.isArray(errors)) {
    for (const member of errors) {
      const found = networkErrorCode(member, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return networkErrorCode(cause, depth + 1);
}

function describeNetworkFailure(code: string | undefined, detail: string): string {
  switch (code) {
    case "ECONNREFUSED":
      return "connection refused (ECONNREFUSED): nothing is listening there. Check that the server is running and the URL's host and port.";
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EAI_FAIL":
      return `the host name could not be resolved (${code}). Check the URL's host name and your DNS.`;
    case "ETIMEDOUT":
    case "UND_ERR_CONNECT_TIMEOUT":
    case "UND_ERR_HEADERS_TIMEOUT":
    case "UND_ERR_BODY_TIMEOUT":
      return `timed out (${code}). Check that the server is reachable and not overloaded.`;
    case "ECONNRESET":
    case "EPIPE":
    case "UND_ERR_SOCKET":
    case "UND_ERR_CLOSED":
      return `the server closed the connection (${code}). Check the server's logs; it may have crashed or dropped the request.`;
    case undefined:
      return `network error: ${detail}. Check that the server is reachable.`;
    default:
      return `network error (${code}). Check that the server is reachable.`;
  }
}

/**
 * fetch's network failure, as each runtime words it: Node (undici), Chrome, Firefox, Safari. The
 * message is all a browser gives: no cause, no code.
 */
const FETCH_FAILURE_MESSAGES = new Set([
  "fetch failed",
  "Failed to fetch",
  "NetworkError when attempting to fetch resource.",
  "Load failed",
]);

function isFetchFailure(error: unknown): boolean {
  return error instanceof TypeError && FETCH_FAILURE_MESSAGES.has(error.message);
}

function isAbort(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { name?: unknown }).name === "AbortError";
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function truncate(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * The error itself when no secret occurs in its message, stack or causes; otherwise a copy
 * (same name, code and status) whose texts are redacted, so `cause` can be logged safely.
 */
export function redactError(error: unknown, secrets: ReadonlySet<string>, depth = 0): unknown {
  if (secrets.size === 0 || depth > 5) return error;
  if (typeof error === "string") return redactSecrets(error, secrets);
  if (!(error instanceof Error)) return error;
  const cause = redactError(error.cause, secrets, depth + 1);
  const members =
    error instanceof AggregateError
      ? error.errors.map((member: unknown) => redactError(member, secrets, depth + 1))
      : undefined;
  const leaks = containsSecret(error.message, secrets) || containsSecret(error.stack ?? "", secrets);
  if (
    !leaks &&
    cause === error.cause &&
    (members === undefined || members.every((member, i) => member === (error as AggregateError).errors[i]))
  ) {
    return error;
  }
  const copy = new Error(redactSecrets(error.message, secrets), cause === undefined ? undefined : { cause });
  copy.name = error.name;
  copy.stack = redactSecrets(error.stack ?? "", secrets);
  const extra = error as Error & { code?: unknown; status?: unknown };
  Object.assign(copy, {
    ...(extra.code === undefined ? {} : { code: extra.code }),
    ...(extra.status === undefined ? {} : { status: extra.status }),
    ...(members === undefined ? {} : { errors: members }),
  });
  return copy;
}

function containsSecret(text: string, secrets: ReadonlySet<string>): boolean {
  return redactSecrets(text, secrets) !== text;
}
