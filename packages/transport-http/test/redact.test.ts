import { Value } from "typebox/value";
import { describe, expect, it } from "vitest";
import { collectConfigSecrets, HttpServerConfigSchema, HttpTransportError, redactSecrets } from "../src/index.js";

describe("redactSecrets", () => {
  it("replaces every occurrence of every secret", () => {
    expect(redactSecrets("a tok-1 b tok-1 c key-2", ["tok-1", "key-2"])).toBe("a [REDACTED] b [REDACTED] c [REDACTED]");
  });

  it("replaces the longer secret first so no tail of it is left", () => {
    expect(redactSecrets("Bearer abcd1234", ["abcd", "Bearer abcd1234"])).toBe("[REDACTED]");
  });

  it("also replaces the URL-encoded form", () => {
    expect(redactSecrets("GET /x?t=a%2Bb%2Fc", ["a+b/c"])).toBe("GET /x?t=[REDACTED]");
  });

  it("ignores empty secrets and leaves text without secrets alone", () => {
    expect(redactSecrets("nothing here", ["", "absent"])).toBe("nothing here");
  });
});

describe("HttpTransportError", () => {
  it("carries code, status and cause, and is recognised by its marker", () => {
    const cause = new Error("underlying");
    const error = new HttpTransportError("SERVER_ERROR", "boom", { status: 502, cause, transport: "sse", url: "http://h/sse" });
    expect(error).toMatchObject({ code: "SERVER_ERROR", status: 502, cause, transport: "sse", url: "http://h/sse", name: "HttpTransportError" });
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

describe("collectConfigSecrets", () => {
  it("collects credential headers, bare tokens, long plain header values and URL userinfo and query values", () => {
    const secrets = collectConfigSecrets({
      url: "https://user:p%40ss@example.invalid/mcp?api_key=k3y",
      headers: { Authorization: "Bearer tok-123", "X-Trace": "abc", "X-Tenant": "tenant-42" },
    });
    expect(secrets).toEqual(new Set(["Bearer tok-123", "tok-123", "tenant-42", "user", "p%40ss", "p@ss", "k3y", "api_key=k3y"]));
  });

  it("adds nothing for an unparsable URL and no headers", () => {
    expect(collectConfigSecrets({ url: "not a url" }).size).toBe(0);
  });
});
