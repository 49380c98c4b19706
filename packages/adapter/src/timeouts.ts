import { clampTimer } from "@mcp-tool-adapter/core/value-rules";

// The positive-number and timer rules are core's (one rule for every package); the adapter's
// files import them from here with withTimeout.
export { clampTimer, positiveOr } from "@mcp-tool-adapter/core/value-rules";

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
