import { describe, expect, it } from "vitest";
import { cutOffByProxy, jsonRpcErrorIn, MCPProtocolError, RPC_CONNECTION_CLOSED } from "../src/index.js";

describe("jsonRpcErrorIn", () => {
  it("reads the JSON-RPC error of a body, or of a message quoting one", () => {
    const body = '{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"Method not found","data":{"m":"x"}}}';
    expect(jsonRpcErrorIn(body)).toEqual({ code: -32601, message: "Method not found", data: { m: "x" } });
    expect(jsonRpcErrorIn(`Error POSTing to endpoint: ${body}`)?.code).toBe(-32601);
  });

  it("finds none in HTML, in text without JSON, or in JSON without a well-formed error", () => {
    expect(jsonRpcErrorIn("<html><body>Bad Gateway</body></html>")).toBeUndefined();
    expect(jsonRpcErrorIn("")).toBeUndefined();
    expect(jsonRpcErrorIn('{"jsonrpc":"2.0","id":1,"result":{}}')).toBeUndefined();
    expect(jsonRpcErrorIn('{"error":{"code":"E1","message":"x"}}')).toBeUndefined();
    expect(jsonRpcErrorIn("{not json")).toBeUndefined();
  });
});

describe("cutOffByProxy", () => {
  it("reads a 502, 503 or 504 without a JSON-RPC answer as a request cut off in flight", () => {
    const cause = new Error("the HTTP failure");
    for (const status of [502, 503, 504]) {
      const error = cutOffByProxy({ status, text: "<html>Bad Gateway</html>", detail: "POST to http://h/mcp", cause });
      expect(MCPProtocolError.isInstance(error) && [error.rpcCode, error.data, error.cause]).toEqual([
        RPC_CONNECTION_CLOSED,
        { status },
        cause,
      ]);
      expect(error?.message).toBe(
        `The request was cut off on its way to or from the server (HTTP ${status} from a proxy in between): POST to http://h/mcp`,
      );
    }
  });

  it("leaves any other status, and a 5xx that carries a JSON-RPC answer, to the caller", () => {
    expect(cutOffByProxy({ status: 500, text: "oops" })).toBeUndefined();
    expect(cutOffByProxy({ status: 404, text: "" })).toBeUndefined();
    const answer = '{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"shutting down"}}';
    expect(cutOffByProxy({ status: 503, text: answer })).toBeUndefined();
  });
});
