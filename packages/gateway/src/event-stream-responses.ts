import { SseParser } from "@mcp-tool-adapter/transport-http";

/** What watchEventStreamResponses tells about the event stream it passes on. */
export interface EventStreamWatcher {
  /** A JSON-RPC message carrying an id went by (a response, or a request of the server's). */
  onMessage(message: unknown): void;
  /** The stream ended, or the client stopped reading it. */
  onEnd(): void;
  /** Reading the stream failed. */
  onError(error: unknown): void;
}

/**
 * `source` (a `text/event-stream` body) passed on chunk for chunk as it arrives, each chunk
 * handed on before it is looked at, so the client waits for nothing; the JSON-RPC messages in its
 * events that carry an id are shown to `watcher`, read with the transports' own event parser.
 * Only for an observed exchange: it decodes the text.
 */
export function watchEventStreamResponses(
  source: ReadableStream<Uint8Array>,
  watcher: EventStreamWatcher,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  const parser = new SseParser({
    onEvent: (event) => {
      const message = messageWithId(event.data);
      if (message !== undefined) watcher.onMessage(message);
    },
    onRetry: () => undefined,
  });
  let over = false;
  const finish = (ending: () => void): void => {
    if (over) return;
    over = true;
    ending();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          parser.end();
          finish(() => {
            watcher.onEnd();
          });
          controller.close();
          return;
        }
        controller.enqueue(value);
        parser.push(value);
      } catch (error) {
        finish(() => {
          watcher.onError(error);
        });
        controller.error(error);
      }
    },
    cancel(reason) {
      finish(() => {
        watcher.onEnd();
      });
      return reader.cancel(reason);
    },
  });
}

/** The JSON-RPC message an event's data carries, when it has an id (the only ones a span waits for). */
function messageWithId(data: string): unknown {
  if (!data.includes('"id"')) return undefined;
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined;
  }
}
