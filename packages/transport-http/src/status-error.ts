/**
 * An HTTP answer the streamable client cannot use, before classification: `status` is the HTTP
 * status, or -1 for a 2xx the transport cannot read (an unexpected content type). `classifyFailure`
 * turns it into the HttpTransportError with the matching code.
 */
export class HttpStatusError extends Error {
  override readonly name = "HttpStatusError";
  readonly status: number;
  /** The response body, where it was read (a refused POST's). */
  readonly body: string | undefined;

  constructor(status: number, message: string, body?: string) {
    super(message);
    this.status = status;
    this.body = body;
  }
}
