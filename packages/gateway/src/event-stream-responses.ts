/** What watchEventStreamResponses tells about the event stream it passes on. */
export interface EventStreamWatcher {
  /** A JSON-RPC message carrying an id went by (a response, or a request of the server's). */
  onMessage(message: unknown): void;
  /** The stream ended, or the client stopped reading it. */
  onEnd(): void;
  /** Reading the stream failed. */
  onError(error: unknown): void;
}

/** Where one server-sent event ends: a blank line (any of the line ends the format allows). */
const EVENT_END = /\r\n\r\n|\n\n|\r\r/u;
const LINE_END = /\r\n|\n|\r/u;

/**
 * `source` (a `text/event-stream` body) passed on chunk for chunk as it arrives, each chunk
 * handed on before it is looked at, so the client waits for nothing; the JSON-RPC messages in its
 * events that carry an id are shown to `watcher`. Only for an observed exchange: it decodes the text.
 */
export function watchEventStreamResponses(
  source: ReadableStream<Uint8Array>,
  watcher: EventStreamWatcher,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  const decoder = new TextDecoder();
  let unread = "";
  let over = false;
  const finish = (ending: () => void): void => {
    if (over) return;
    over = true;
    ending();
  };
  const read = (text: string): void => {
    unread += text;
    for (let end = EVENT_END.exec(unread); end !== null; end = EVENT_END.exec(unread)) {
      const message = eventMessage(unread.slice(0, end.index));
      unread = unread.slice(end.index + end[0].length);
      if (message !== undefined) watcher.onMessage(message);
    }
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          read(decoder.decode());
          finish(() => {
            watcher.onEnd();
          });
          controller.close();
          return;
        }
        controller.enqueue(value);
        read(decoder.decode(value, { stream: true }));
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
function eventMessage(event: string): unknown {
  let data: string | undefined;
  for (const line of event.split(LINE_END)) {
    if (!line.startsWith("data:")) continue;
    const value = line.startsWith("data: ") ? line.slice(6) : line.slice(5);
    data = data === undefined ? value : `${data}\n${value}`;
  }
  if (data?.includes('"id"') !== true) return undefined;
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined;
  }
}
