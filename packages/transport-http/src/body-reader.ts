/** One read of a body: a chunk, or its end. */
export type BodyReadResult = { done: false; value: Uint8Array } | { done: true; value?: undefined };

/** How the transports read a response body: the two methods of a web stream's reader they use. */
export interface BodyReader {
  read(): Promise<BodyReadResult>;
  cancel(reason?: unknown): Promise<void>;
}

/**
 * A method on a Response whose body can be read without building a web stream for it (the Node
 * direct client's, see node-body.ts): returns its reader (the same one each time), or undefined once
 * `body` was handed out.
 */
export const DIRECT_BODY_READER = Symbol("mcp-tool-adapter.directBodyReader");

interface DirectlyReadable {
  [DIRECT_BODY_READER]?: () => BodyReader | undefined;
}

/** The reader of a response's body: the direct one when the response has it, else its web stream's. */
export function bodyReader(response: Response): BodyReader | undefined {
  return (response as DirectlyReadable)[DIRECT_BODY_READER]?.() ?? response.body?.getReader();
}

/** Drops a body no one will read, so its connection is released (a failure to cancel is of no interest). */
export async function discardBody(response: Response): Promise<void> {
  await bodyReader(response)
    ?.cancel()
    .catch(() => undefined);
}
