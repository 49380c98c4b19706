import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";

/**
 * Watches the wire transport a stream connection's era decision (the v2 SDK's `serveStdio`) reads,
 * so that once the connection is pinned to the 2025 era its messages can skip that entry: after the
 * pin, `serveStdio` only passes each message on, but it does so through an async queue and a channel
 * that runs the SDK's zod message guards on every message in and every response out (about a tenth
 * of the gateway's CPU per forwarded call). Install right after `serveStdio` took the wire's
 * `onmessage`.
 */
export class WireTap {
  #wire: Transport | undefined;
  /** The last message handed to the SDK's entry; its arrival at the pinned session means the entry's queue is empty. */
  #lastHanded: JSONRPCMessage | undefined;
  #direct: ((message: JSONRPCMessage) => void) | undefined;

  /** Taps `wire`; call once, right after the era decision set the wire's `onmessage`. */
  attach(wire: Transport): void {
    const sdkOnMessage = wire.onmessage;
    if (sdkOnMessage === undefined) throw new Error("WireTap: attach it after the era decision took the wire.");
    this.#wire = wire;
    wire.onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => {
      if (this.#direct !== undefined) {
        this.#direct(message);
        return;
      }
      this.#lastHanded = message;
      sdkOnMessage(message, extra);
    };
  }

  /**
   * The channel a 2025 session connects to in place of the SDK's `channel` (which the era decision
   * made for it): responses and requests go to the wire as they are, and inbound messages go to the
   * session straight from the wire from the moment the entry has passed on everything it queued.
   */
  pinLegacy(channel: Transport): Transport {
    // Not attached (the era decision pinned before its first message could be tapped): the SDK's channel as it is.
    if (this.#wire === undefined) return channel;
    return new PinnedLegacyChannel({
      sdkChannel: channel,
      wire: this.#wire,
      deliveredBySdk: (message, takeOver) => {
        // The entry handles messages strictly in order, so once the last one handed to it arrives,
        // nothing is left in its queue: from here the wire delivers to the session directly.
        if (message === this.#lastHanded) {
          this.#lastHanded = undefined;
          this.#direct = takeOver;
        }
      },
    });
  }
}

interface PinnedLegacyChannelOptions {
  /** The SDK entry's channel: still the one that closes the connection and brings the opening messages. */
  readonly sdkChannel: Transport;
  readonly wire: Transport;
  /** Told of every message the SDK's entry delivered, with the function that delivers one directly. */
  readonly deliveredBySdk: (message: JSONRPCMessage, takeOver: (message: JSONRPCMessage) => void) => void;
}

/**
 * A 2025 session's transport on a stream connection: sends go to the wire, closing goes through the
 * SDK's channel (so the entry tears the connection down as before), and a message arrives either
 * through the SDK's entry (the opening ones) or straight from the wire (every one after).
 */
class PinnedLegacyChannel implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  readonly #options: PinnedLegacyChannelOptions;
  #closed = false;

  constructor(options: PinnedLegacyChannelOptions) {
    this.#options = options;
  }

  get sessionId(): string | undefined {
    return this.#options.sdkChannel.sessionId;
  }

  start(): Promise<void> {
    const { sdkChannel, deliveredBySdk } = this.#options;
    sdkChannel.onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => {
      deliveredBySdk(message, this.#deliverDirect);
      this.onmessage?.(message, extra);
    };
    sdkChannel.onerror = (error) => this.onerror?.(error);
    sdkChannel.onclose = () => {
      this.#closed = true;
      this.onclose?.();
    };
    return sdkChannel.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    // A closed channel drops what is sent, as the SDK's channel does.
    if (this.#closed) return Promise.resolve();
    return this.#options.wire.send(message, options);
  }

  setProtocolVersion(version: string): void {
    this.#options.sdkChannel.setProtocolVersion?.(version);
  }

  close(): Promise<void> {
    return this.#options.sdkChannel.close();
  }

  readonly #deliverDirect = (message: JSONRPCMessage): void => {
    if (!this.#closed) this.onmessage?.(message);
  };
}
