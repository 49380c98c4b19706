/**
 * Automatic recovery of one server's connection (opt-in: `recovery: true` or an object). Every
 * field is optional; docs/recovery.md explains the defaults.
 */
export interface RecoveryOptions {
  /** Restart attempts in a row (one outage) before the server is marked down (circuit open). Default 5. */
  maxAttempts?: number;
  /** Delay before the first restart after a server exited or dropped. Default 100 ms. */
  initialDelayMs?: number;
  /** The backoff delay never grows past this. Default 10000 ms. */
  maxDelayMs?: number;
  /** Each failed attempt multiplies the delay by this. Default 2. */
  multiplier?: number;
  /** The share of each delay that is random (0: none, 1: anywhere from 0 to the delay). Default 0.5. */
  jitter?: number;
  /**
   * How long a server marked down stays down before the next call probes it (half-open); with no
   * call, a timer probes it up to `jitter` of this later. Default 30000 ms.
   */
  cooldownMs?: number;
  /** Successful restarts allowed within windowMs; one more marks a crash-looping server down. Default 10. */
  maxRestartsPerWindow?: number;
  /** The window of maxRestartsPerWindow. Default 60000 ms. */
  windowMs?: number;
  /** Times a call cut off by a failure is sent again; only tools safe to repeat are. Default 2. */
  maxCallRetries?: number;
  /** Random numbers in [0, 1) for the jitter. Default Math.random. */
  random?: () => number;
  /** Waits out a restart's backoff delay (`ms`), settling early once `signal` aborts. Default: a timer. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** RecoveryOptions with every default filled in. */
export interface RecoveryPolicy {
  readonly maxAttempts: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  readonly multiplier: number;
  readonly jitter: number;
  readonly cooldownMs: number;
  readonly maxRestartsPerWindow: number;
  readonly windowMs: number;
  readonly maxCallRetries: number;
  readonly random: () => number;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}

export const DEFAULT_RECOVERY = Object.freeze({
  maxAttempts: 5,
  initialDelayMs: 100,
  maxDelayMs: 10_000,
  multiplier: 2,
  jitter: 0.5,
  cooldownMs: 30_000,
  maxRestartsPerWindow: 10,
  windowMs: 60_000,
  maxCallRetries: 2,
});

/** The policy for `recovery` as the adapter options give it; undefined when recovery is off. */
export function recoveryPolicy(recovery: boolean | RecoveryOptions | undefined): RecoveryPolicy | undefined {
  if (recovery === undefined || recovery === false) return undefined;
  const given = recovery === true ? {} : recovery;
  const count = (value: number | undefined, fallback: number, min: number): number =>
    typeof value === "number" && Number.isFinite(value) && value >= min ? Math.floor(value) : fallback;
  const ms = (value: number | undefined, fallback: number): number =>
    typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : fallback;
  return {
    maxAttempts: count(given.maxAttempts, DEFAULT_RECOVERY.maxAttempts, 1),
    initialDelayMs: ms(given.initialDelayMs, DEFAULT_RECOVERY.initialDelayMs),
    maxDelayMs: ms(given.maxDelayMs, DEFAULT_RECOVERY.maxDelayMs),
    multiplier:
      typeof given.multiplier === "number" && given.multiplier >= 1 ? given.multiplier : DEFAULT_RECOVERY.multiplier,
    jitter:
      typeof given.jitter === "number" && given.jitter >= 0 && given.jitter <= 1
        ? given.jitter
        : DEFAULT_RECOVERY.jitter,
    cooldownMs: ms(given.cooldownMs, DEFAULT_RECOVERY.cooldownMs),
    maxRestartsPerWindow: count(given.maxRestartsPerWindow, DEFAULT_RECOVERY.maxRestartsPerWindow, 1),
    windowMs: ms(given.windowMs, DEFAULT_RECOVERY.windowMs),
    maxCallRetries: count(given.maxCallRetries, DEFAULT_RECOVERY.maxCallRetries, 0),
    random: given.random ?? Math.random,
    sleep: given.sleep ?? sleepWithTimer,
  };
}

/**
 * The delay before restart attempt `attempt` (1-based): exponential from initialDelayMs, capped
 * at maxDelayMs, minus a random share of up to `jitter` of it, so servers that failed together
 * do not all come back in the same instant.
 */
export function restartDelay(attempt: number, policy: RecoveryPolicy): number {
  const base = Math.min(policy.maxDelayMs, policy.initialDelayMs * policy.multiplier ** (attempt - 1));
  const random = Math.min(1, Math.max(0, policy.random()));
  return base * (1 - policy.jitter * random);
}

function sleepWithTimer(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
