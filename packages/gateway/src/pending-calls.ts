import { randomBytes } from "node:crypto";
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import type { ModernCall } from "./modern-call.js";

/** How long a call waits for the client's retry after asking it a question, by default: five minutes. */
export const DEFAULT_INPUT_TIMEOUT_MS = 300_000;

/**
 * The 2026-07-28 calls of this gateway copy that wait for a client's answers, each under an opaque,
 * unguessable `requestState` (32 random bytes) that the client echoes in its retry. A state is good
 * for one retry: the retry takes the call out, and a further question parks it under a new state.
 * A call nobody retries within the timeout is given up (its upstream answered `cancel`).
 */
export class PendingCalls {
  readonly #calls = new Map<string, { call: ModernCall; timer: NodeJS.Timeout }>();
  readonly #timeoutMs: number;

  constructor(timeoutMs: number = DEFAULT_INPUT_TIMEOUT_MS) {
    this.#timeoutMs = timeoutMs;
  }

  get size(): number {
    return this.#calls.size;
  }

  /** Parks `call` until its retry; returns the `requestState` that retry must carry. */
  park(call: ModernCall): string {
    const state = randomBytes(32).toString("base64url");
    const timer = setTimeout(() => {
      if (this.#calls.get(state)?.call !== call) return;
      this.#calls.delete(state);
      call.giveUp(
        `The client did not retry the call of "${call.tool}" within ${Math.round(this.#timeoutMs / 1000)} s of the gateway asking it for input, so the upstream's question was answered with cancel.`,
      );
    }, this.#timeoutMs);
    timer.unref();
    this.#calls.set(state, { call, timer });
    return state;
  }

  /**
   * The parked call a retry names, checked before it is taken: `check` may throw (a bad answer) and
   * the call stays parked under the same state. Unknown state, or a retry of another tool: a
   * classified InvalidParams error saying why.
   */
  take(state: string, retry: { tool: string; check: (call: ModernCall) => void }): ModernCall {
    const entry = this.#calls.get(state);
    if (entry === undefined) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        "The requestState of this retried tools/call is unknown to this gateway copy: it was not issued here, was already used by another retry, or its call ended (nobody retried in time, or the gateway restarted). The upstream's question waits in the gateway copy that asked it, so a retry must reach that same copy (one copy, or sticky routing); call the tool again to start over.",
        { code: "REQUEST_STATE_UNKNOWN", reason: "invalid_request_state" },
      );
    }
    if (entry.call.tool !== retry.tool) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `This requestState belongs to a call of "${entry.call.tool}", but the retry calls "${retry.tool}"; retry the same tool with the same arguments.`,
        { code: "REQUEST_STATE_MISMATCH", reason: "invalid_request_state" },
      );
    }
    retry.check(entry.call);
    clearTimeout(entry.timer);
    this.#calls.delete(state);
    return entry.call;
  }

  /** Gives every waiting call up (the gateway closing). */
  close(): void {
    for (const { call, timer } of this.#calls.values()) {
      clearTimeout(timer);
      call.giveUp("The gateway closed while the call waited for the client's answer.");
    }
    this.#calls.clear();
  }
}
