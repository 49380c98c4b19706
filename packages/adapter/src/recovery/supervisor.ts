import { describeCause, type Logger } from "@mcp-tool-adapter/core";
import type { HealthChangeListener, MCPServerHealth, MCPServerHealthState } from "./health.js";
import { restartDelay, type RecoveryPolicy } from "./options.js";

/** What the supervisor needs from the adapter whose connection it looks after. */
export interface SupervisorContext {
  readonly serverName: string;
  readonly logger: Logger | undefined;
  now(): number;
  /**
   * One attempt to bring the server back: a new session with everything restored. Throws when it
   * fails; does nothing (and throws) once `signal` aborted, because the host took over.
   */
  reopen(signal: AbortSignal): Promise<void>;
}

/** What a call waiting for the server learns. */
export type SessionWait =
  | { kind: "ready" }
  | { kind: "not_connected" }
  | { kind: "unavailable"; message: string }
  | { kind: "timeout" }
  | { kind: "cancelled" };

/** The probe timer of a cooldown never fires sooner than this, whatever `cooldownMs` says. */
const MIN_PROBE_TIMER_MS = 100;

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
}

/**
 * The health of one server's connection and, when recovery is on, the restarts after it drops:
 * exponential backoff with jitter up to `maxAttempts`, then down (circuit open) until a probe
 * (half-open): the first call after `cooldownMs`, or a timer soon after it when no call comes, so
 * an idle adapter sees its server come back. A first connect() that fails is supervised too: the
 * server is down from the start and probed in the background on the restart backoff, then every
 * cooldown. Without a policy it only tracks health.
 */
export class RecoverySupervisor {
  readonly #context: SupervisorContext;
  readonly #policy: RecoveryPolicy | undefined;
  readonly #listeners = new Set<HealthChangeListener>();
  #state: MCPServerHealthState = "disconnected";
  #since: number;
  #attempt = 0;
  #recoveries = 0;
  #lastFailure: string | undefined;
  #probeAt: number | undefined;
  /** The restart loop or probe running now; aborted when the host connects or disconnects itself. */
  #run: AbortController | undefined;
  /** Settles when the state leaves reconnecting / probing. */
  #settled: Deferred = deferred();
  /** When each automatic recovery succeeded, within the crash-loop window. */
  #recoveredAt: number[] = [];
  /** Background probes of this outage still due on the restart backoff rather than the cooldown (a failed first connect). */
  #backoffProbesLeft = 0;
  /** Counts the host's disconnect() calls, so a connect() that a disconnect overtook starts no supervision. */
  #disconnects = 0;

  constructor(context: SupervisorContext, policy: RecoveryPolicy | undefined) {
    this.#context = context;
    this.#policy = policy;
    this.#since = context.now();
  }

  get enabled(): boolean {
    return this.#policy !== undefined;
  }

  get state(): MCPServerHealthState {
    return this.#state;
  }

  get health(): MCPServerHealth {
    return Object.freeze({
      serverName: this.#context.serverName,
      state: this.#state,
      since: this.#since,
      attempt: this.#attempt,
      recoveries: this.#recoveries,
      recovery: this.enabled,
      ...(this.#lastFailure === undefined ? {} : { lastFailure: this.#lastFailure }),
      ...(this.#state === "down" && this.#probeAt !== undefined ? { probeAt: this.#probeAt } : {}),
    });
  }

  addListener(listener: HealthChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The host connected (connect() or reconnect() succeeded): whatever recovery ran is moot. */
  connected(reason: string): void {
    this.#stopRun();
    this.#attempt = 0;
    this.#recoveredAt = [];
    this.#setState("connected", reason);
  }

  /** The host disconnected: nothing is restarted or probed any more. */
  disconnected(reason: string): void {
    this.#disconnects += 1;
    this.#stopRun();
    this.#attempt = 0;
    this.#backoffProbesLeft = 0;
    this.#setState("disconnected", reason);
  }

  /** Taken when the host's connect() starts; hand it back to connectFailed(). */
  connectTicket(): number {
    return this.#disconnects;
  }

  /**
   * The host's connect() failed (it still throws). With recovery on the server is supervised from
   * here like after a lost connection: that connect was attempt 1, the server is down (no session
   * to wait for, so calls fail fast), and background probes follow the restart backoff up to
   * `maxAttempts`, then come every cooldown. Nothing starts if disconnect() was called meanwhile.
   */
  connectFailed(ticket: number, why: string): void {
    const policy = this.#policy;
    if (policy === undefined || ticket !== this.#disconnects || this.#state === "connected") return;
    this.#stopRun();
    this.#lastFailure = why;
    this.#attempt = 1;
    this.#recoveredAt = [];
    this.#backoffProbesLeft = policy.maxAttempts - 1;
    this.#goDown(`the first connect failed: ${why}`, this.#nextBackoff(policy));
  }

  /** The live connection went away without the host asking; `immediate` skips the first delay (a forgotten session). */
  connectionLost(why: string, immediate: boolean): void {
    if (this.#state !== "connected") return;
    this.#lastFailure = why;
    const policy = this.#policy;
    if (policy === undefined) {
      this.#setState("disconnected", `connection lost: ${why}`);
      return;
    }
    const now = this.#context.now();
    this.#recoveredAt = this.#recoveredAt.filter((at) => now - at < policy.windowMs);
    if (this.#recoveredAt.length >= policy.maxRestartsPerWindow) {
      this.#goDown(
        `it was restarted ${this.#recoveredAt.length} times within ${policy.windowMs} ms and dropped again (${why})`,
      );
      return;
    }
    this.#setState("reconnecting", `connection lost: ${why}`);
    const run = new AbortController();
    this.#run = run;
    void this.#restartLoop(policy, run.signal, immediate);
  }

  /**
   * Waits (up to `timeoutMs`, or until `signal` aborts) until the server is usable. A server that
   * is down fails fast, unless its cooldown is over: then this call starts the half-open probe.
   */
  async waitForSession(timeoutMs: number, signal: AbortSignal | undefined): Promise<SessionWait> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      if (signal?.aborted === true) return { kind: "cancelled" };
      switch (this.#state) {
        case "connected":
          return { kind: "ready" };
        case "disconnected":
          return { kind: "not_connected" };
        case "down":
          if (this.#policy === undefined || this.#context.now() < (this.#probeAt ?? 0))
            return { kind: "unavailable", message: this.downMessage() };
          this.#startProbe(this.#policy, "the cooldown is over and a call came");
          continue;
        case "reconnecting":
        case "probing": {
          const outcome = await waitFor(this.#settled.promise, deadline - performance.now(), signal);
          if (outcome !== "settled") return { kind: outcome };
        }
      }
    }
  }

  async #restartLoop(policy: RecoveryPolicy, signal: AbortSignal, immediate: boolean): Promise<void> {
    for (let attempt = 1; attempt <= policy.maxAttempts; attempt += 1) {
      this.#attempt = attempt;
      const delay = attempt === 1 && immediate ? 0 : restartDelay(attempt, policy);
      if (delay > 0) await policy.sleep(delay, signal);
      if (signal.aborted) return;
      this.#context.logger?.info?.(
        `Restarting MCP server "${this.#context.serverName}" (attempt ${attempt} of ${policy.maxAttempts})`,
      );
      const outcome = await this.#attemptReopen(signal);
      if (outcome === "stopped") return;
      if (outcome === "ok") {
        this.#recovered(`recovered after ${attempt} attempt${attempt === 1 ? "" : "s"}`);
        return;
      }
    }
    this.#goDown(`${policy.maxAttempts} restart attempts failed; the last: ${this.#lastFailure ?? "unknown"}`);
  }

  /** One half-open attempt, started by a call after the cooldown or by the probe timer. */
  #startProbe(policy: RecoveryPolicy, trigger: string): void {
    this.#stopRun(); // the probe timer, when a call came first
    const run = new AbortController();
    this.#run = run;
    this.#attempt += 1;
    this.#setState("probing", `${trigger}: one attempt to bring the server back`);
    void this.#attemptReopen(run.signal).then((outcome) => {
      if (outcome === "stopped") return; // the host connected or disconnected meanwhile
      if (outcome === "ok") this.#recovered("the probe succeeded");
      else this.#goDown(`the probe failed: ${this.#lastFailure ?? "unknown"}`, this.#nextBackoff(policy));
    });
  }

  /** While a failed first connect has backoff attempts left, the delay before the next (undefined: the cooldown). */
  #nextBackoff(policy: RecoveryPolicy): number | undefined {
    if (this.#backoffProbesLeft <= 0) return undefined;
    this.#backoffProbesLeft -= 1;
    return restartDelay(this.#attempt + 1, policy);
  }

  /**
   * Probes a down server by itself, with no call needed: after the backoff delay, or after the
   * cooldown plus a random share of up to `jitter` of it (so servers that went down together are
   * not all probed in the same instant), and never sooner than MIN_PROBE_TIMER_MS after a cooldown
   * began (a zero cooldown cannot spin). One timer at a time, stopped with the run; unref'd, so an
   * idle adapter waiting to probe never keeps the process alive.
   */
  #scheduleProbe(policy: RecoveryPolicy, backoffMs: number | undefined): void {
    const run = new AbortController();
    this.#run = run;
    const wait =
      backoffMs ??
      Math.max(MIN_PROBE_TIMER_MS, policy.cooldownMs * (1 + policy.jitter * Math.min(1, Math.max(0, policy.random()))));
    const timer = setTimeout(() => {
      if (!run.signal.aborted && this.#state === "down")
        this.#startProbe(policy, "no call came; the probe timer fired");
    }, wait);
    // A number in browsers, which have no unref (and no process to keep alive).
    (timer as { unref?: () => void }).unref?.();
    run.signal.addEventListener("abort", () => clearTimeout(timer), { once: true });
  }

  async #attemptReopen(signal: AbortSignal): Promise<"ok" | "failed" | "stopped"> {
    try {
      await this.#context.reopen(signal);
    } catch (error) {
      if (signal.aborted) return "stopped";
      this.#lastFailure = describeCause(error);
      return "failed";
    }
    return signal.aborted ? "stopped" : "ok";
  }

  #recovered(reason: string): void {
    this.#run = undefined;
    this.#attempt = 0;
    this.#backoffProbesLeft = 0;
    this.#recoveries += 1;
    this.#recoveredAt.push(this.#context.now());
    this.#setState("connected", reason);
  }

  /** Circuit open for the cooldown (or `backoffMs`): calls fail fast until then, and a timer probes the server soon after. */
  #goDown(reason: string, backoffMs?: number): void {
    const policy = this.#policy;
    this.#run = undefined;
    this.#recoveredAt = [];
    this.#probeAt = this.#context.now() + (backoffMs ?? policy?.cooldownMs ?? 0);
    const message = `MCP server "${this.#context.serverName}" is marked down: ${reason}. Calls fail fast until it is probed again.`;
    // A warning when it goes down; a probe that finds it still down (every cooldown, for as long as it is) is only news.
    if (this.#state === "probing") this.#context.logger?.info?.(message);
    else this.#context.logger?.warn?.(message);
    this.#setState("down", reason);
    if (policy !== undefined) this.#scheduleProbe(policy, backoffMs);
  }

  /** Why calls fail fast while down, and until when. */
  downMessage(): string {
    const waitMs = Math.max(0, Math.ceil((this.#probeAt ?? 0) - this.#context.now()));
    return `MCP server "${this.#context.serverName}" is down (circuit open${this.#lastFailure === undefined ? "" : `; last failure: ${this.#lastFailure}`}); calls fail fast for ${waitMs} ms more, then the next call tries it again. Call reconnect() to try now.`;
  }

  #stopRun(): void {
    this.#run?.abort();
    this.#run = undefined;
  }

  #setState(to: MCPServerHealthState, reason: string): void {
    const from = this.#state;
    this.#state = to;
    this.#since = this.#context.now();
    if (to !== "reconnecting" && to !== "probing") {
      this.#settled.resolve();
      this.#settled = deferred();
    }
    if (from === to) return;
    const event = Object.freeze({ serverName: this.#context.serverName, from, to, reason, health: this.health });
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.#context.logger?.warn?.(
          `A health listener of MCP server "${this.#context.serverName}" threw: ${describeCause(error)}`,
          { error },
        );
      }
    }
  }
}

function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

/** Waits for `promise`, at most `ms`, or until `signal` aborts; removes its timer and listener after. */
function waitFor(
  promise: Promise<void>,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<"settled" | "timeout" | "cancelled"> {
  if (ms <= 0) return Promise.resolve("timeout");
  return new Promise((resolve) => {
    const finish = (outcome: "settled" | "timeout" | "cancelled"): void => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      resolve(outcome);
    };
    const onAbort = (): void => finish("cancelled");
    const timer = setTimeout(() => finish("timeout"), ms);
    signal?.addEventListener("abort", onAbort, { once: true });
    void promise.then(() => finish("settled"));
  });
}
