import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { checkJsonRpcMessage } from "../src/json-rpc-message.js";

/** Lines a server might write, each as the JSON text it sends. */
const LINES = [
  `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Echo: hi"}]}}`,
  `{"jsonrpc":"2.0","id":"a-1","result":{}}`,
  `{"result":{"tools":[]},"id":7,"jsonrpc":"2.0"}`,
  `{"jsonrpc":"2.0","id":1,"result":{"_meta":{"progressToken":1},"content":[]}}`,
  `{"jsonrpc":"2.0","id":1,"result":{"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"t","extra":1}}}}`,
  `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`,
  `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":3,"progress":1,"total":2}}`,
  `{"jsonrpc":"2.0","id":9,"method":"roots/list","params":{}}`,
  `{"jsonrpc":"2.0","id":9,"method":"sampling/createMessage","params":{"_meta":{"progressToken":"p"},"messages":[]}}`,
  `{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"Method not found","data":{"x":1},"extra":true}}`,
  `{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}`,
  // Rejected by the SDK's schema: the fast path must not let any of them through.
  `{"jsonrpc":"2.0","id":1,"result":[1,2]}`,
  `{"jsonrpc":"2.0","id":1,"result":null}`,
  `{"jsonrpc":"2.0","id":1.5,"result":{}}`,
  `{"jsonrpc":"2.0","id":9007199254740993,"result":{}}`,
  `{"jsonrpc":"2.0","id":null,"result":{}}`,
  `{"jsonrpc":"2.0","result":{}}`,
  `{"jsonrpc":"1.0","id":1,"result":{}}`,
  `{"id":1,"result":{}}`,
  `{"jsonrpc":"2.0","id":1,"result":{},"extra":1}`,
  `{"jsonrpc":"2.0","id":1,"result":{},"__proto__":{"polluted":true}}`,
  `{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}`,
  `{"jsonrpc":"2.0","id":1,"method":"x","result":{}}`,
  `{"jsonrpc":"2.0","method":7}`,
  `{"jsonrpc":"2.0","method":"x","params":[1]}`,
  `{"jsonrpc":"2.0","method":"x","params":null}`,
  `{"jsonrpc":"2.0","id":{},"method":"x"}`,
  `[{"jsonrpc":"2.0","id":1,"result":{}}]`,
  `"text"`,
  `null`,
  `{}`,
];

describe("checkJsonRpcMessage", () => {
  it.each(LINES)("agrees with the SDK's JSON-RPC schema on %s", async (line) => {
    const value: unknown = JSON.parse(line);
    const expected = JSONRPCMessageSchema.safeParse(JSON.parse(line));
    const actual = await checkJsonRpcMessage(value);
    expect(actual.success).toBe(expected.success);
    if (actual.success && expected.success) expect(actual.data).toStrictEqual(expected.data);
  });

  it("accepts the common shapes without a copy", () => {
    const response: unknown = JSON.parse(`{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`);
    const notification: unknown = JSON.parse(
      `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info"}}`,
    );
    expect(checkJsonRpcMessage(response)).toEqual({ success: true, data: response });
    expect((checkJsonRpcMessage(response) as { data: unknown }).data).toBe(response);
    expect((checkJsonRpcMessage(notification) as { data: unknown }).data).toBe(notification);
  });

  it("says why a message is not JSON-RPC", async () => {
    const result = await checkJsonRpcMessage({ jsonrpc: "2.0", id: 1, result: 5 });
    expect(result.success).toBe(false);
    expect(String((result as { error: unknown }).error)).toMatch(/result|invalid/iu);
  });
});
