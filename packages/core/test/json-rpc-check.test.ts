import { describe, expect, it } from "vitest";
import { createJsonRpcMessageCheck, isPlainJsonRpcResultOrCall, type JsonRpcMessageSchema } from "../src/index.js";

/** A schema standing in for SDK 1.x's JSONRPCMessageSchema: accepts objects with jsonrpc "2.0", drops `extra`. */
function countingSchema(): { schema: JsonRpcMessageSchema; runs: unknown[] } {
  const runs: unknown[] = [];
  const schema: JsonRpcMessageSchema = {
    safeParse(value) {
      runs.push(value);
      if (typeof value !== "object" || value === null || (value as { jsonrpc?: unknown }).jsonrpc !== "2.0") {
        return { success: false, error: new Error("not JSON-RPC 2.0") };
      }
      const { extra: _dropped, ...kept } = value as Record<string, unknown>;
      return { success: true, data: kept };
    },
  };
  return { schema, runs };
}

describe("isPlainJsonRpcResultOrCall", () => {
  it("recognises results, requests and notifications without _meta or other keys", () => {
    expect(isPlainJsonRpcResultOrCall({ jsonrpc: "2.0", id: 1, result: { tools: [] } })).toBe(true);
    expect(isPlainJsonRpcResultOrCall({ jsonrpc: "2.0", id: "a", method: "tools/call", params: {} })).toBe(true);
    expect(isPlainJsonRpcResultOrCall({ jsonrpc: "2.0", method: "notifications/initialized" })).toBe(true);
  });

  it("leaves everything else to the schema", () => {
    const notPlain = [
      null,
      [],
      "text",
      { jsonrpc: "1.0", id: 1, result: {} },
      { jsonrpc: "2.0", id: 1.5, result: {} },
      { jsonrpc: "2.0", result: {} },
      { jsonrpc: "2.0", id: 1, result: { _meta: {} } },
      { jsonrpc: "2.0", id: 1, result: [] },
      { jsonrpc: "2.0", id: 1, method: "ping", params: { _meta: { progressToken: 1 } } },
      { jsonrpc: "2.0", id: 1, method: "ping", extra: true },
      { jsonrpc: "2.0", id: 1, error: { code: -32601, message: "Method not found" } },
      JSON.parse('{"jsonrpc":"2.0","method":"ping","__proto__":{}}') as unknown,
    ];
    for (const message of notPlain) expect(isPlainJsonRpcResultOrCall(message)).toBe(false);
  });
});

describe("createJsonRpcMessageCheck", () => {
  it("passes plain messages as they are without loading the schema", () => {
    let loads = 0;
    const check = createJsonRpcMessageCheck(() => {
      loads += 1;
      return Promise.resolve(countingSchema().schema);
    });
    const message = { jsonrpc: "2.0", id: 1, result: {} };
    expect(check(message)).toEqual({ success: true, data: message });
    expect(loads).toBe(0);
  });

  it("loads the schema once, at the first message that needs it, and gives the schema's verdict", async () => {
    const { schema, runs } = countingSchema();
    let loads = 0;
    const check = createJsonRpcMessageCheck(() => {
      loads += 1;
      return Promise.resolve(schema);
    });
    const error = { jsonrpc: "2.0", id: 1, error: { code: -32601, message: "Method not found" }, extra: 1 };
    const first = check(error);
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toEqual({ success: true, data: { jsonrpc: "2.0", id: 1, error: error.error } });
    // Loaded now: the answer is synchronous.
    expect(check({ jsonrpc: "1.0", id: 2, error: {} })).toMatchObject({ success: false });
    expect(loads).toBe(1);
    expect(runs).toHaveLength(2);
  });

  it("refuses every message that needs the schema when it failed to load", async () => {
    const check = createJsonRpcMessageCheck(() => Promise.reject(new Error("types.js missing")));
    const verdict = await check({ jsonrpc: "2.0", id: 1, error: { code: 1, message: "x" } });
    expect(verdict.success).toBe(false);
    expect(verdict.success ? undefined : String(verdict.error)).toContain("types.js missing");
  });
});
