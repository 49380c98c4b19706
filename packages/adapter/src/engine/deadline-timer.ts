import { clampTimer } from "../timeouts.js";

/**
 * One Node timer for the timeouts of every request a session has in flight. A timer per request
 * made each call set one up and tear it down (for a lone call, one of Node's timer lists too),
 * and that showed in the latency of sequential calls. This timer is armed for the earliest
 * deadline it has been told of and stays armed when requests finish; when it fires,
 * `expireDue(now)` times out whatever is due and returns the next deadline to wait for (or
 * Infinity). Like the per-request timers it replaces, it holds the process open exactly while
 * requests are in flight.
 */
export class DeadlineTimer {
  readonly #expireDue: (now: number) => number;
  readonly #now: () => number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #due = Number.POSITIVE_INFINITY;

  // performance.now looked up at each call, not once: a test's fake clock replaces it after the session starts.
  constructor(expireDue: (now: number) => number, now: () => number = () => performance.now()) {
    this.#expireDue = expireDue;
    this.#now = now;
  }

  /** A request due at `deadline` (a time on the `now` clock) is in flight. */
  watch(deadline: number): void {
    // ref() and unref() are no-ops when the timer already is so.
    if (deadline < this.#due) this.#arm(deadline);
    else this.#timer?.ref();
  }

  /** Nothing is in flight: the timer may stay armed, but it no longer holds the process open. */
  idle(): void {
    this.#timer?.unref();
  }

  /** For good: the session is closed. */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#due = Number.POSITIVE_INFINITY;
  }

  #arm(deadline: number): void {
    clearTimeout(this.#timer);
    this.#due = deadline;
    // Past setTimeout's longest delay the timer fires early, finds nothing due and waits again.
    const timer = setTimeout(
      () => {
        this.#fire(timer);
      },
      clampTimer(Math.max(deadline - this.#now(), 0)),
    );
    this.#timer = timer;
  }

  #fire(timer: ReturnType<typeof setTimeout>): void {
    // A timer replaced since has nothing to do (clearTimeout cannot reach it under a test's fake timers).
    if (timer !== this.#timer) return;
    this.#timer = undefined;
    this.#due = Number.POSITIVE_INFINITY;
    const next = this.#expireDue(this.#now());
    // Timing a request out may have started another, and armed the timer for it already.
    if (next < this.#due) this.#arm(next);
  }
}
