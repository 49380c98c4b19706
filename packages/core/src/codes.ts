/**
 * The error `code` a transport uses for a message larger than its `maxMessageBytes`, and the
 * `data.reason` of the JSON-RPC answer it sends in place of a dropped response.
 */
export const MESSAGE_TOO_LARGE = "MESSAGE_TOO_LARGE";

/**
 * The JSON-RPC error code (implementation-defined server range) of the answer a transport sends
 * for a response it dropped for its size, so a client can tell "too large" from any other server
 * error, whichever transport it uses.
 */
export const MESSAGE_TOO_LARGE_ERROR_CODE = -32050;

/**
 * The error `code` for a server that needs a login (no credentials stored, or the stored ones can
 * no longer be refreshed without a human): the message says which command or call logs in.
 */
export const AUTH_REQUIRED = "AUTH_REQUIRED";

/** The error `code` for credentials a server or its authorization server rejected, or an authorization that failed. */
export const AUTH_FAILED = "AUTH_FAILED";
