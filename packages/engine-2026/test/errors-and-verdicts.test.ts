import { MCPProtocolError } from "@mcp-tool-adapter/core";
import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { EraVerdicts } from "../src/era-verdicts.js";
import { toSeamError } from "../src/errors.js";
import { Engine2026Error } from "../src/index.js";

describe("the SDK's errors at the seam", () => {
  it("a JSON-RPC error keeps its code and data; the SDK's timeout and close get SDK 1.x's codes", () => {
    const rpc = toSeamError(new ProtocolError(-32602, "Tool nope not found", { tool: "nope" }));
    expect(MCPProtocolError.isInstance(rpc) && [rpc.rpcCode, rpc.message, rpc.data]).toEqual([
      -32602,
      "Tool nope not found",
      { tool: "nope" },
    ]);
    const codeOf = (code: SdkErrorCode): number | undefined => {
      const error = toSeamError(new SdkError(code, "x"));
      return MCPProtocolError.isInstance(error) ? error.rpcCode : undefined;
    };
    expect(codeOf(SdkErrorCode.RequestTimeout)).toBe(-32001);
    expect(codeOf(SdkErrorCode.ConnectionClosed)).toBe(-32000);
    expect(codeOf(SdkErrorCode.MethodNotSupportedByProtocolVersion)).toBe(-32601);
  });

  it("a lost connection, a failed negotiation and a bare HTTP status become classified Engine2026Errors", () => {
    const codeOf = (error: unknown): string | undefined => {
      const seam = toSeamError(error);
      return Engine2026Error.isInstance(seam) ? seam.code : undefined;
    };
    expect(codeOf(new SdkError(SdkErrorCode.SendFailed, "write failed"))).toBe("CONNECTION_FAILED");
    expect(codeOf(new SdkError(SdkErrorCode.EraNegotiationFailed, "no era"))).toBe("ERA_NEGOTIATION_FAILED");
    const bare = toSeamError(
      new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "Error POSTing: I'm a teapot", { status: 418 }),
    );
    expect(Engine2026Error.isInstance(bare) && [bare.code, bare.status]).toEqual(["HTTP_ERROR", 418]);
  });

  it("a proxy's 502, 503 or 504 without a JSON-RPC answer is a request cut off in flight (the closed-connection code)", () => {
    for (const status of [502, 503, 504]) {
      const error = toSeamError(
        new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "Error POSTing to endpoint: <html>Bad Gateway</html>", {
          status,
        }),
      );
      expect(MCPProtocolError.isInstance(error) && [error.rpcCode, error.data]).toEqual([-32000, { status }]);
    }
  });

  it("a JSON-RPC answer inside an HTTP error is the error that counts", () => {
    const error = toSeamError(
      new SdkHttpError(
        SdkErrorCode.ClientHttpNotImplemented,
        'Error POSTing to endpoint: {"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"Method not found"}}',
        { status: 404 },
      ),
    );
    expect(MCPProtocolError.isInstance(error) && [error.rpcCode, error.message]).toEqual([-32601, "Method not found"]);
  });
});

describe("era verdicts", () => {
  const server = { name: "docs", transport: "streamable-http", url: "http://127.0.0.1:1/mcp" };

  it("a 2025 verdict expires, a 2026 verdict stays until forgotten", () => {
    let now = 0;
    const verdicts = new EraVerdicts(1_000, () => now);
    verdicts.set(server, "2025");
    now = 999;
    expect(verdicts.get(server)).toBe("2025");
    now = 1_000;
    expect(verdicts.get(server)).toBeUndefined();
    verdicts.set(server, "2026-07-28");
    now = 1_000_000;
    expect(verdicts.get(server)).toBe("2026-07-28");
    expect(verdicts.get({ ...server, url: "http://127.0.0.1:2/mcp" })).toBeUndefined();
    verdicts.forget(server);
    expect(verdicts.get(server)).toBeUndefined();
  });
});
