import { invokeOrThrow, withAdapter } from "./adapter-session.js";

/**
 * SEP-1699: the server closes the tool call's SSE stream before answering and sends the answer
 * on the stream the client reopens with GET; the client must wait the stream's `retry` and send
 * Last-Event-ID.
 */
export function sseRetry(serverUrl: string): Promise<void> {
  return withAdapter(serverUrl, {}, (adapter) => invokeOrThrow(adapter, "test_reconnection", {}));
}
