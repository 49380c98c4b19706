import { invokeOrThrow, withAdapter } from "./adapter-session.js";

/**
 * SEP-1034: the server elicits a form whose fields all have defaults; the user accepts without
 * filling any, and the client must send the defaults for the omitted fields.
 */
export function elicitationDefaults(serverUrl: string): Promise<void> {
  return withAdapter(serverUrl, { onElicitation: () => ({ action: "accept", content: {} }) }, (adapter) =>
    invokeOrThrow(adapter, "test_client_elicitation_defaults", {}),
  );
}
