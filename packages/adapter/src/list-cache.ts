import type { Session } from "./session.js";

/**
 * One server list (resources, templates, prompts) cached for the session it was listed on.
 * Concurrent readers share one listing; a listing from a replaced session is never kept.
 */
export class ListCache<T> {
  readonly #load: (session: Session) => Promise<readonly T[]>;
  #cached: { session: Session; items: readonly T[] } | undefined;
  #inFlight: { session: Session; promise: Promise<readonly T[]> } | undefined;

  constructor(load: (session: Session) => Promise<readonly T[]>) {
    this.#load = load;
  }

  /** The last listing of `session`, or undefined when it has none. */
  cachedFor(session: Session): readonly T[] | undefined {
    return this.#cached?.session === session ? this.#cached.items : undefined;
  }

  /** The cached listing of `session`, listing once (shared by concurrent callers) when there is none. */
  get(session: Session): Promise<readonly T[]> {
    const cached = this.cachedFor(session);
    if (cached !== undefined) return Promise.resolve(cached);
    return this.refresh(session);
  }

  /** Lists again now (joining a listing already running on the session) and caches the result. */
  refresh(session: Session): Promise<readonly T[]> {
    if (this.#inFlight?.session === session) return this.#inFlight.promise;
    const promise = this.#load(session).then((items) => {
      if (session.state === "open") this.#cached = { session, items };
      return items;
    });
    const inFlight = { session, promise };
    this.#inFlight = inFlight;
    const forget = (): void => {
      if (this.#inFlight === inFlight) this.#inFlight = undefined;
    };
    promise.then(forget, forget);
    return promise;
  }

  /** The list changed on the server: the next reader lists again. */
  invalidate(): void {
    this.#cached = undefined;
    this.#inFlight = undefined;
  }
}

/**
 * Runs `task` on demand, at most once at a time: a request that arrives while it runs makes it run
 * exactly once more afterwards. A server flooding list_changed therefore costs at most two
 * listings in flight, never a queue.
 */
export class CoalescedTask {
  readonly #task: () => Promise<void>;
  #running = false;
  #again = false;

  constructor(task: () => Promise<void>) {
    this.#task = task;
  }

  request(): void {
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = true;
    void this.#loop();
  }

  async #loop(): Promise<void> {
    try {
      do {
        this.#again = false;
        await this.#task();
      } while (this.#againRequested());
    } finally {
      this.#running = false;
    }
  }

  /** Read through a call: the flag changes while the loop awaits. */
  #againRequested(): boolean {
    return this.#again;
  }
}
