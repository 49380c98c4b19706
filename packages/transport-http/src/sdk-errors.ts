/** The SDK 1.x error classes the transports meet: its auth flow's and its legacy SSE transport's. */
type SdkErrorName = "SseError" | "UnauthorizedError";

/**
 * True when `error` is an instance of the SDK 1.x class of that name. The classes are recognised
 * by their constructors' names, not imported: importing them would load the SDK's client modules
 * and the `types.js` they import (some 5 MB of heap) into every process that uses HTTP, when only
 * the auth flow and the legacy SSE transport (both loaded on demand) can throw them.
 */
export function isSdkError(error: unknown, name: SdkErrorName): boolean {
  if (!(error instanceof Error)) return false;
  for (let proto: unknown = Object.getPrototypeOf(error); proto !== null && proto !== Error.prototype;) {
    const constructor = (proto as { constructor?: { name?: unknown } }).constructor;
    if (constructor?.name === name) return true;
    proto = Object.getPrototypeOf(proto);
  }
  return false;
}
