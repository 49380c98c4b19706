import { invokeOrThrow, withAdapter } from "./adapter-session.js";

/**
 * SEP-1613: the server lists a tool whose input schema uses 2020-12 keywords and asks us to echo
 * that schema back as we hold it, so it can tell whether a keyword was lost on the way in.
 */
export function jsonSchemaPreservation(serverUrl: string): Promise<void> {
  return withAdapter(serverUrl, {}, async (adapter) => {
    const focal = adapter.discoveredTools.find((tool) => tool.name === "json_schema_2020_12_tool");
    if (focal === undefined) throw new Error("the server did not list json_schema_2020_12_tool");
    await invokeOrThrow(adapter, "json_schema_echo", { schema: focal.inputSchema });
  });
}
