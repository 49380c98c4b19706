import { Value } from "typebox/value";
import {
  collectConfigSecrets as coreCollectConfigSecrets,
  redactSecrets as coreRedactSecrets,
} from "@mcp-tool-adapter/core";
import { describe, expect, it } from "vitest";
import { HttpServerConfigSchema } from "../src/config-schema-entry.js";
import { collectConfigSecrets, HttpTransportError, redactSecrets } from "../src/index.js";

describe("redaction", () => {
  // The rules and their tests live in @mcp-tool-adapter/core; this package offers the same functions.
  it("is core's redaction, re-exported", () => {
    expect(redactSecrets).toBe(coreRedactSecrets);
    expect(collectConfigSecrets).toBe(coreCollectConfigSecrets);
    expect(
      redactSecrets(
        "Bearer tok-123",
        collectConfigSecrets({ url: "http://127.0.0.1/mcp", headers: { Authorization: "Bearer tok-123" } }),
      ),
    ).toBe("[REDACTED]");
  });
});

describe("HttpTransportError", () => {
  it("carries code, status and cause, and is recognised by its marker", () => {
    const cause = new Error("underlying");
    const error = new HttpTransportError("SERVER_ERROR", "boom", {
      status: 502,
      cause,
      transport: "sse",
      url: "http://h/sse",
    });
    expect(error).toMatchObject({
      code: "SERVER_ERROR",
      status: 502,
      cause,
      transport: "sse",
      url: "http://h/sse",
      name: "HttpTransportError",
    });
    expect(HttpTransportError.isInstance(error)).toBe(true);
    expect(HttpTransportError.isInstance(new Error("boom"))).toBe(false);
    expect(HttpTransportError.isInstance({ code: "SERVER_ERROR" })).toBe(false);
  });
});

describe("HttpServerConfigSchema", () => {
  it("accepts a url with optional string headers", () => {
    expect(Value.Check(HttpServerConfigSchema, { url: "http://127.0.0.1/mcp", headers: { "X-A": "b" } })).toBe(true);
  });

  it("rejects a missing url, non-string header values and unknown fields", () => {
    expect(Value.Check(HttpServerConfigSchema, { headers: {} })).toBe(false);
    expect(Value.Check(HttpServerConfigSchema, { url: "http://h", headers: { "X-A": 1 } })).toBe(false);
    expect(Value.Check(HttpServerConfigSchema, { url: "http://h", extra: true })).toBe(false);
  });
});
