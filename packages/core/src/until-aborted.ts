/**
 * Resolves like `step`, or rejects with the signal's reason once it aborts; `onLate` gets a value
 * that arrives after the abort (a connection to close, a task to cancel), so nothing it holds leaks.
 */
export function untilAborted<T>(step: Promise<T>, signal: AbortSignal, onLate: (value: T) => void): Promise<T> {
  if (signal.aborted) {
    step.then(onLate, () => undefined);
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      reject(signal.reason as Error);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    step.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        if (signal.aborted) onLate(value);
        else resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the step's own failure, passed on unchanged
        reject(error);
      },
    );
  });
}
