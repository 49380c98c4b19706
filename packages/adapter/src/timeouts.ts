/** setTimeout fires at once for delays above 2^31-1 ms; clamp instead. */
const MAX_TIMER_MS = 2_147_483_647;

/** `value` when it is a positive number, else `fallback` (undefined, zero, negative and NaN all fall back). */
export function positiveOr(value: number | undefined, fallback: number): number {
  return typeof value === "number" && value > 0 && !Number.isNaN(value) ? value : fallback;
}

/** `ms` capped at the longest delay setTimeout honours. */
export function clampTimer(ms: number): number {
  return Math.min(ms, MAX_TIMER_MS);
}

/** Settles like `promise`, or rejects naming `what` when it takes longer than `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`${what} did not finish within ${ms} ms`));
    }, clampTimer(ms));
  });
  return Promise.race([promise, expired]).finally(() => {
    clearTimeout(timer);
  });
}
