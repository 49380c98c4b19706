import type { Client, McpSubscription } from "@modelcontextprotocol/client";
import { setTimeout as sleep } from "node:timers/promises";
import { Engine2026Error, toSeamError } from "./errors.js";

type SubscriptionFilter = Parameters<Client["listen"]>[0];

/**
 * Waits before each attempt to listen again after the server ended the stream. Bounded: after the
 * last one fails the channel reports it and stays down until the next connect.
 */
export const RELISTEN_DELAYS_MS: readonly number[] = Object.freeze([100, 500, 1_000, 2_000, 5_000, 10_000]);
/** A stream that stayed open this long counts as healthy: the next outage starts the delays afresh. */
const HEALTHY_STREAM_MS = 30_000;

export interface ListenChannelOptions {
  readonly client: Client;
  readonly filter: SubscriptionFilter;
  /** Per `subscriptions/listen` request, until the server acknowledges. */
  readonly timeoutMs: number;
  /** Called after listening again: changes made while no stream was open were not sent to anyone. */
  readonly onResubscribed: () => void;
  /** Called when every attempt to listen again failed; the channel stays down. */
  readonly onGaveUp: (error: Engine2026Error) => void;
  readonly now: () => number;
  /** The waits before each attempt to listen again; default RELISTEN_DELAYS_MS. */
  readonly delaysMs?: readonly number[];
}

/**
 * The `subscriptions/listen` stream of one connection, kept open while the connection is wanted.
 * A 2026-07-28 server ends the stream when it shuts down or restarts (or the network drops it), and
 * notifications are not replayed; so the channel listens again with growing delays, and tells its
 * owner afterwards, so lists are fetched again instead of trusting what was seen before the gap.
 */
export class ListenChannel {
  readonly #options: ListenChannelOptions;
  /** Aborted by close(): cancels a pending delay and an in-flight listen request. */
  readonly #closing = new AbortController();
  #subscription: McpSubscription | undefined;
  #outages = 0;

  constructor(options: ListenChannelOptions) {
    this.#options = options;
  }

  /** The first listen, at connect: rejects when the server refuses or `signal` aborts. */
  async open(signal: AbortSignal): Promise<void> {
    await this.#subscribe(AbortSignal.any([signal, this.#closing.signal]));
  }

  /** Ends the stream and any attempt to reopen it; safe to call twice. */
  async close(): Promise<void> {
    this.#closing.abort();
    await this.#subscription?.close().catch(() => undefined);
  }

  async #subscribe(signal: AbortSignal): Promise<void> {
    const { client, filter, timeoutMs, now } = this.#options;
    const subscription = await client.listen(filter, { timeout: timeoutMs, signal });
    if (this.#closing.signal.aborted) {
      // close() ran while the server was acknowledging: it could not see this stream to end it.
      await subscription.close().catch(() => undefined);
      return;
    }
    this.#subscription = subscription;
    const openedAt = now();
    void subscription.closed.then((why) => {
      if (why === "local" || this.#closing.signal.aborted) return;
      if (now() - openedAt >= HEALTHY_STREAM_MS) this.#outages = 0;
      void this.#listenAgain(why);
    });
  }

  async #listenAgain(why: string): Promise<void> {
    const signal = this.#closing.signal;
    const delays = this.#options.delaysMs ?? RELISTEN_DELAYS_MS;
    let lastError: unknown;
    while (this.#outages < delays.length) {
      const delay = delays[this.#outages] as number;
      this.#outages += 1;
      try {
        await sleep(delay, undefined, { signal });
        await this.#subscribe(signal);
        this.#options.onResubscribed();
        return;
      } catch (error) {
        if (signal.aborted) return;
        lastError = error;
      }
    }
    this.#options.onGaveUp(
      new Engine2026Error(
        "SDK_ERROR",
        `The server ended the subscriptions/listen stream (${why}) and listening again failed ${delays.length} times${
          lastError === undefined ? "" : ` (last: ${toSeamError(lastError).message})`
        }; list changes are not followed until the next connect`,
        lastError === undefined ? {} : { cause: lastError },
      ),
    );
  }
}
