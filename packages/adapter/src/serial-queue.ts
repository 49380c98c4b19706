/**
 * Runs async jobs one at a time, in the order they were queued. A failing job does not stop
 * the ones behind it. `tail` tells callers what is queued last, so they can share it.
 */
export class SerialQueue<Kind extends string> {
  #last: Promise<unknown> = Promise.resolve();
  #pending = 0;
  #tail: { kind: Kind; promise: Promise<void> } | undefined;

  /** True when nothing is running or waiting. */
  get idle(): boolean {
    return this.#pending === 0;
  }

  /** The job queued last, while it has not finished. */
  get tail(): { kind: Kind; promise: Promise<void> } | undefined {
    return this.#tail;
  }

  run(kind: Kind, job: () => Promise<void>): Promise<void> {
    this.#pending += 1;
    const promise = this.#last.then(job).finally(() => {
      this.#pending -= 1;
      if (this.#tail?.promise === promise) this.#tail = undefined;
    });
    // The chain itself must never reject, or one failure would poison every later job.
    this.#last = promise.catch(() => undefined);
    this.#tail = { kind, promise };
    return promise;
  }
}
