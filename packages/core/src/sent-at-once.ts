/**
 * What a transport's `send()` may return for a message it wrote before returning (a stdio pipe
 * that took the whole line at once): one shared promise, already fulfilled, that nothing can
 * reject later. A session that sees it needs no failure listener on the send, which saves a
 * promise and a microtask on every request; any other promise is followed as usual.
 */
export const SENT_AT_ONCE: Promise<void> = Promise.resolve();
