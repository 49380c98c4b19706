import { clampTimer } from "./timeouts.js";

/** One deadline shared by the steps of a connect: each step races it, the SDK gets its signal. */
export class Deadline {
  readonly #controller = new AbortController();
  readonly #endsAt: number;
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #expiredPromise: Promise<never>;
  #expired = false;

  constructor(ms: number) {
    this.#endsAt = Date.now() + ms;
    let fire: (error: Error) => void = () => undefined;
    this.#expiredPromise = new Promise<never>((_resolve, reject) => {
      fire = reject;
    });
    this.#expiredPromise.catch(() => undefined);
    this.#timer = setTimeout(() => {
      this.#expired = true;
      const error = new Error(`timed out after ${ms} ms`);
      this.#controller.abort(error);
      fire(error);
    }, clampTimer(ms));
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get expired(): boolean {
    return this.#expired;
  }

  remaining(): number {
    return clampTimer(Math.max(1, this.#endsAt - Date.now()));
  }

  /** Resolves with `step`, or rejects when the deadline passes first; `onLate` gets a late result. */
  race<T>(step: Promise<T>, onLate?: (value: T) => void): Promise<T> {
    step.then(
      (value) => {
        if (this.#expired) onLate?.(value);
      },
      () => undefined,
    );
    return Promise.race([step, this.#expiredPromise]);
  }

  clear(): void {
    clearTimeout(this.#timer);
  }
}
