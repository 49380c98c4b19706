import { withAdapter } from "./adapter-session.js";

/** The handshake and a tools/list: the suite checks the protocol version and clientInfo we send. */
export function initialize(serverUrl: string): Promise<void> {
  return withAdapter(serverUrl, {}, async () => {});
}
