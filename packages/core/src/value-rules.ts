/**
 * `@mcp-tool-adapter/core/value-rules`: small rules on values that several packages apply, kept
 * in one place so they cannot drift apart (they did: three copies of the positive-number rule
 * disagreed on Infinity).
 */

/** The longest delay `setTimeout` honours (2^31-1 ms); a longer one fires at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * `value` when it is a number above zero, else `fallback`: undefined, zero, negative numbers and
 * NaN fall back. Infinity is above zero and is kept: it means "no limit" (a deadline armed with it
 * goes through {@link timerDelayOr} and waits the longest a timer can).
 */
export function positiveOr(value: number | undefined, fallback: number): number {
  return typeof value === "number" && value > 0 ? value : fallback;
}

/** `ms` capped at {@link MAX_TIMER_MS}, so a long or infinite delay waits instead of firing at once. */
export function clampTimer(ms: number): number {
  return Math.min(ms, MAX_TIMER_MS);
}

/** A timer's delay from an option: {@link positiveOr}, then {@link clampTimer}. */
export function timerDelayOr(value: number | undefined, fallback: number): number {
  return clampTimer(positiveOr(value, fallback));
}

/** True for an object that is not null and not an array: a JSON object, read key by key. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Values a transport has just parsed from the bytes it read; see markParsedFromWire. */
const parsedFromWire = new WeakSet<object>();

/**
 * Marks an object a transport has just made with `JSON.parse` from what it read (a response's
 * `result`): no one else holds it yet, so whoever keeps it (tool discovery keeping thousands of
 * schemas) may freeze it where it is instead of copying it. Anything else is left unmarked and
 * is copied as before: an in-process server's objects are its own. Only a listing of tools (an
 * array under `tools`) is marked: it is the one result a reader keeps whole, and a mark on every
 * call's result cost each call a WeakSet entry for nothing.
 */
export function markParsedFromWire(value: unknown): void {
  if (typeof value === "object" && value !== null && Array.isArray((value as { tools?: unknown }).tools))
    parsedFromWire.add(value);
}

/** Whether a transport marked `value` with markParsedFromWire. */
export function isParsedFromWire(value: unknown): boolean {
  return typeof value === "object" && value !== null && parsedFromWire.has(value);
}
