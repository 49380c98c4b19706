import { invokeOrThrow, withAdapter } from "./adapter-session.js";

/**
 * SEP-2322 (multi round-trip requests): the server answers tool calls with `input_required`, with
 * and without `requestState`; the engine must answer the elicitation through our handler, echo the
 * state untouched, and keep one call's state out of the others. The last tool answers without
 * `resultType`: the suite checks only that the client does not retry it. The SDK refuses such a
 * result from a server that speaks 2026-07-28 (the revision makes the field mandatory for servers;
 * "absent means complete" is for earlier revisions), so that call's outcome is not required here.
 */
export function requestState(serverUrl: string): Promise<void> {
  return withAdapter(
    serverUrl,
    { onElicitation: () => ({ action: "accept", content: { confirmed: true } }) },
    async (adapter) => {
      for (const tool of ["test_mrtr_echo_state", "test_mrtr_unrelated", "test_mrtr_no_state"]) {
        await invokeOrThrow(adapter, tool, {});
      }
      await adapter.invoke("test_mrtr_no_result_type", {});
    },
  );
}
