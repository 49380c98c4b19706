import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { MESSAGE_TOO_LARGE, MESSAGE_TOO_LARGE_ERROR_CODE } from "@mcp-tool-adapter/core";
import { describeCause } from "./errors.js";
import { RpcCode, rpcCodeOf } from "./rpc-error.js";

/**
 * Codes of errors a transport's `send` rejects with when the connection is gone: the stdio
 * transport's (the server exited, its stdin is broken, the transport closed), the HTTP
 * transports' (nothing reachable, transport closed), and Node's own for a dead pipe or socket.
 * A generic Error from a send is not among them: that stays a server error.
 */
const CONNECTION_GONE_CODES: ReadonlySet<string> = new Set([
  "WRITE_FAILED",
  "TRANSPORT_CLOSED",
  "SERVER_EXITED",
  "CONNECTION_FAILED",
  "NOT_CONNECTED",
  "EPIPE",
  "ECONNRESET",
  "ERR_STREAM_DESTROYED",
  "ERR_STREAM_WRITE_AFTER_END",
]);

const STDERR_LINES_IN_MESSAGE = 3;
const STDERR_CHARS_IN_MESSAGE = 500;

/** True when a request failed because the connection under it is gone (read structurally). */
export function isConnectionGone(error: unknown): boolean {
  const code = codeOf(error);
  if (code !== undefined && CONNECTION_GONE_CODES.has(code)) return true;
  // A fetch refused its connection: nothing went out, and nothing is listening there any more.
  return fetchCauseCode(error) === "ECONNREFUSED";
}

/** undici's codes under a fetch's "fetch failed" for a socket that closed, reset or refused. */
const FETCH_CUT_CODES: ReadonlySet<string> = new Set([
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "ECONNRESET",
  "ECONNREFUSED",
]);

/**
 * True when a fetch under the request failed on its socket (the SDK v2 transport passes fetch's
 * TypeError "fetch failed" on as is): the connection is gone. Not a sign the request never went
 * out: the request may have reached the server before the socket closed, so it is a request cut
 * off in flight, and `neverReachedServer` does not count it.
 */
export function isFetchCutOff(error: unknown): boolean {
  const code = fetchCauseCode(error);
  return code !== undefined && FETCH_CUT_CODES.has(code);
}

/** The first code under a fetch's TypeError ("fetch failed" wraps undici's error, which may wrap the socket's). */
function fetchCauseCode(error: unknown): string | undefined {
  if (!(error instanceof TypeError)) return undefined;
  let cause: unknown = error.cause;
  for (let depth = 0; depth < 2 && typeof cause === "object" && cause !== null; depth += 1) {
    const code = codeOf(cause);
    if (code !== undefined) return code;
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}

/** True when the SDK gave up on a request because the transport closed. */
export function isConnectionClosed(error: unknown): boolean {
  return rpcCodeOf(error) === RpcCode.ConnectionClosed;
}

/** True when a transport refused a response for its size: a -32050 answer, or a MESSAGE_TOO_LARGE send failure. */
export function isMessageTooLarge(error: unknown): boolean {
  const rpcCode = rpcCodeOf(error);
  if (rpcCode !== undefined) {
    if (rpcCode === MESSAGE_TOO_LARGE_ERROR_CODE) return true;
    const data = (error as { data?: unknown }).data as { reason?: unknown; code?: unknown } | null | undefined;
    return data?.reason === MESSAGE_TOO_LARGE || data?.code === MESSAGE_TOO_LARGE;
  }
  return codeOf(error) === MESSAGE_TOO_LARGE;
}

/** Why a transport closed, when it says so (the stdio transport's `closeReason`); read structurally. */
export function closeReasonOf(transport: Transport | undefined): Error | undefined {
  const reason = (transport as { closeReason?: unknown } | undefined)?.closeReason;
  return reason instanceof Error ? reason : undefined;
}

/**
 * A one-line description of a transport failure. A server that exited (an error carrying
 * `exitCode` / `signal`, as the stdio transport's SERVER_EXITED does) is described by its exit
 * and the last lines of its stderr; anything else by its message.
 */
export function describeTransportFailure(error: unknown): string {
  const { exitCode, signal, stderrTail } = (typeof error === "object" && error !== null ? error : {}) as {
    exitCode?: unknown;
    signal?: unknown;
    stderrTail?: unknown;
  };
  const exit =
    typeof signal === "string"
      ? `the server was killed by ${signal}`
      : typeof exitCode === "number"
        ? `the server exited with code ${exitCode}`
        : undefined;
  if (exit === undefined) return describeCause(error);
  const lines = lastLines(typeof stderrTail === "string" ? stderrTail : "");
  return lines === "" ? `${exit} without writing to stderr` : `${exit}; its stderr ended with: ${lines}`;
}

function lastLines(text: string): string {
  const lines = text
    .split(/\r?\n/u)
    .map((line) => line.trim())
    .filter((line) => line !== "");
  const joined = lines.slice(-STDERR_LINES_IN_MESSAGE).join(" | ");
  return joined.length > STDERR_CHARS_IN_MESSAGE ? `…${joined.slice(-STDERR_CHARS_IN_MESSAGE)}` : joined;
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}
