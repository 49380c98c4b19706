import { describeCause } from "./errors.js";
import { ConnectionLost } from "./session.js";
import { RpcCode, rpcCodeOf } from "./rpc-error.js";
import { describeTransportFailure, isConnectionGone, isFetchCutOff, isMessageTooLarge } from "./transport-failure.js";

/**
 * Why a request to a server failed (a tool call or any other request), read once from what it
 * rejected with. Tool calls (call-outcome.ts) and the other requests (request-outcome.ts) both
 * classify with this one function and differ only in the words and error kinds they report.
 */
export type FailureCause =
  /** The session closed under the request; `detail` says why. */
  | { readonly kind: "connection_closed"; readonly detail: string }
  /** The request could not be sent: the connection under it is gone; `detail` describes the transport failure. */
  | { readonly kind: "send_failed"; readonly detail: string }
  /** The caller's signal aborted it; `reason` is the signal's. */
  | { readonly kind: "cancelled"; readonly reason: unknown }
  /** No answer in time; `totalExceeded` when the SDK's maximum total time (not the per-progress deadline) ran out. */
  | { readonly kind: "timeout"; readonly totalExceeded: boolean }
  /** A transport refused the answer for its size. */
  | { readonly kind: "too_large"; readonly error: unknown }
  /** The server answered with a JSON-RPC error. */
  | { readonly kind: "rpc_error"; readonly rpcCode: number; readonly message: string }
  /** Anything else the transport threw. */
  | { readonly kind: "transport"; readonly error: unknown };

/** Classifies the rejection of a request sent with `signal` (first match wins, in this order). */
export function classifyFailure(error: unknown, signal: AbortSignal | undefined): FailureCause {
  if (error instanceof ConnectionLost) return { kind: "connection_closed", detail: error.why };
  // An abort rejects with the same code as a timeout: the caller's own signal tells them apart.
  if (signal?.aborted === true) return { kind: "cancelled", reason: signal.reason };
  const rpcCode = rpcCodeOf(error);
  if (rpcCode !== undefined) {
    const { message } = error as Error;
    if (rpcCode === RpcCode.RequestTimeout) {
      return { kind: "timeout", totalExceeded: /maximum total timeout/iu.test(message) };
    }
    if (rpcCode === RpcCode.ConnectionClosed) return { kind: "connection_closed", detail: message };
    if (isMessageTooLarge(error)) return { kind: "too_large", error };
    return { kind: "rpc_error", rpcCode, message };
  }
  if (isConnectionGone(error)) return { kind: "send_failed", detail: describeTransportFailure(error) };
  // Cut off in flight (it may have run): the connection closed under it, as a session closing would.
  if (isFetchCutOff(error)) return { kind: "connection_closed", detail: describeCause(error) };
  if (isMessageTooLarge(error)) return { kind: "too_large", error };
  return { kind: "transport", error };
}

/** " (reason)" for an abort reason worth showing; nothing for none or a plain AbortError. */
export function reasonSuffix(reason: unknown): string {
  if (reason === undefined) return "";
  if (reason instanceof Error && reason.name === "AbortError") return "";
  return ` (${describeCause(reason)})`;
}
