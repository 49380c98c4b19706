import { randomBytes } from "node:crypto";
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import type { ModernCall } from "./modern-call.js";

/** How long a call waits for the client's retry after asking it a question, by default: five minutes. */
export const DEFAULT_INPUT_TIMEOUT_MS = 300_000;

/** How many 2026-07-28 calls of one gateway copy may wait for their client's answer at once, by default. */
export const DEFAULT_MAX_CALLS_AWAITING_INPUT = 100;

/** The JSON-RPC error code of a call refused because too many calls wait for input (InternalError: the gateway's condition, not the client's). */
export const TOO_MANY_CALLS_AWAITING_INPUT_RPC_CODE = ProtocolErrorCode.InternalError;

export interface PendingCallsOptions {
  /** How long a parked call waits for its retry (default DEFAULT_INPUT_TIMEOUT_MS). */
  readonly timeoutMs?: number | undefined;
  /** How many calls may wait at once (default DEFAULT_MAX_CALLS_AWAITING_INPUT). */
  readonly maxCalls?: number | undefined;
}

/**
 * The 2026-07-28 calls of this gateway copy that wait for a client's answers, each under an opaque,
 * unguessable key (32 random bytes): the `requestState` the client echoes in its retry, or sealed
 * into it with this copy's address when the copies pass retries on (held-call-retries.ts). A state is good
 * for one retry: the retry takes the call out, and a further question parks it under a new state.
 * A call nobody retries within the timeout is given up (its upstream answered `cancel`).
 *
 * Each waiting call holds an upstream request open, so at most `maxCalls` wait at once: a call holds
 * its slot from its first question until it ends (while a retry is being served too, so a call
 * already waiting is never pushed out by a new one), and a new call past the limit is given up at once.
 */
export class PendingCalls {
  readonly #calls = new Map<string, { call: ModernCall; timer: NodeJS.Timeout }>();
  /** Calls holding a slot: parked now, or between a retry and their next question or result. */
  readonly #slots = new Set<ModernCall>();
  readonly #timeoutMs: number;
  readonly #maxCalls: number;

  constructor(options: PendingCallsOptions = {}) {
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_INPUT_TIMEOUT_MS;
    this.#maxCalls = options.maxCalls ?? DEFAULT_MAX_CALLS_AWAITING_INPUT;
  }

  /** Calls parked now (waiting for a retry). */
  get size(): number {
    return this.#calls.size;
  }

  /** Calls holding a slot: parked, or being served a retry. */
  get holding(): number {
    return this.#slots.size;
  }

  /**
   * Parks `call` until its retry; returns the `requestState` that retry must carry. A call that holds
   * no slot yet and finds them all taken is given up (its upstream's questions answered `cancel` /
   * refused, its upstream call cancelled) and a TOO_MANY_CALLS_AWAITING_INPUT error is thrown.
   */
  park(call: ModernCall): string {
    if (!this.#slots.has(call) && this.#slots.size >= this.#maxCalls) {
      const reason = `The gateway already has ${this.#maxCalls} calls waiting for their clients' answers (maxCallsAwaitingInput), so the call of "${call.tool}" cannot wait for one more; its upstream's question was answered with cancel. Try again when fewer calls wait.`;
      call.giveUp(reason, "TOO_MANY_CALLS_AWAITING_INPUT");
      throw new ProtocolError(TOO_MANY_CALLS_AWAITING_INPUT_RPC_CODE, reason, {
        code: "TOO_MANY_CALLS_AWAITING_INPUT",
        limit: this.#maxCalls,
      });
    }
    this.#slots.add(call);
    const state = randomBytes(32).toString("base64url");
    const timer = setTimeout(() => {
      if (this.#calls.get(state)?.call !== call) return;
      this.#calls.delete(state);
      this.#slots.delete(call);
      call.giveUp(
        `The client did not retry the call of "${call.tool}" within ${Math.round(this.#timeoutMs / 1000)} s of the gateway asking it for input, so the upstream's question was answered with cancel.`,
        "INPUT_TIMEOUT",
      );
    }, this.#timeoutMs);
    timer.unref();
    this.#calls.set(state, { call, timer });
    return state;
  }

  /** The call ended (a result, or a failure) after a retry: its slot is free again. */
  release(call: ModernCall): void {
    this.#slots.delete(call);
  }

  /**
   * The parked call a retry names, checked before it is taken: `check` may throw (a bad answer) and
   * the call stays parked under the same state. Unknown state, or a retry of another tool: a
   * classified InvalidParams error saying why. The call keeps its slot until `release`.
   */
  take(state: string, retry: { tool: string; check: (call: ModernCall) => void }): ModernCall {
    const entry = this.#calls.get(state);
    if (entry === undefined) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        "The requestState of this retried tools/call is unknown to this gateway copy: it was not issued here, was already used by another retry, or its call ended (nobody retried in time, or the gateway restarted). The upstream's question waits in the gateway copy that asked it, so a retry must reach that same copy: run one copy, route retries back to it, or give every copy the same requestStateKey and its own peerUrl (serve --request-state-key-env, --peer-url) so that any copy passes a retry on to the one holding its call. Call the tool again to start over.",
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
      call.giveUp("The gateway closed while the call waited for the client's answer.", "INPUT_TIMEOUT");
    }
    this.#calls.clear();
    this.#slots.clear();
  }
}
