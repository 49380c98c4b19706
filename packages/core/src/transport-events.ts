/** The event half of a transport (the SDKs' `Transport` callbacks), whatever its message type. */
export interface TransportEvents<Message, Extra> {
  onmessage?: ((message: Message, extra?: Extra) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;
}

/**
 * What a transport that wraps another does when it starts: takes over `inner`'s events, handles
 * each message with `onmessage` (its own work, then its own `onmessage`), and passes errors and
 * the close on to `outer`. `outer`'s callbacks are read when an event fires, not now: the SDK's
 * Client sets them on the wrapper after it is built, and may change them.
 */
export function relayTransportEvents<Message, Extra>(
  inner: TransportEvents<Message, Extra>,
  outer: TransportEvents<Message, Extra>,
  onmessage: (message: Message, extra?: Extra) => void,
): void {
  inner.onmessage = onmessage;
  inner.onerror = (error) => {
    outer.onerror?.(error);
  };
  inner.onclose = () => {
    outer.onclose?.();
  };
}
