import { invokeOrThrow, withAdapter } from "./adapter-session.js";

/** The suite's server offers `add_numbers(a, b)` and checks that it was called. */
export function toolsCall(serverUrl: string): Promise<void> {
  return withAdapter(serverUrl, {}, (adapter) => invokeOrThrow(adapter, "add_numbers", { a: 2, b: 3 }));
}
