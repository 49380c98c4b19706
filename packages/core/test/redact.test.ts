import { describe, expect, it } from "vitest";
import { collectConfigSecrets, isSensitiveHeader, redactSecrets } from "../src/index.js";

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

describe("collectConfigSecrets", () => {
  it("collects credential headers, bare tokens, long plain header values and URL userinfo and query values", () => {
    const secrets = collectConfigSecrets({
      url: "https://user:p%40ss@example.invalid/mcp?api_key=k3y",
      headers: { Authorization: "Bearer tok-123", "X-Trace": "abc", "X-Tenant": "tenant-42" },
    });
    expect(secrets).toEqual(
      new Set(["Bearer tok-123", "tok-123", "tenant-42", "user", "p%40ss", "p@ss", "k3y", "api_key=k3y"]),
    );
  });

  it("collects each cookie value and keeps short credential values", () => {
    const secrets = collectConfigSecrets({
      url: "http://127.0.0.1/mcp",
      headers: { Cookie: "sid=abc; theme=dark", "X-Api-Key": "k1" },
    });
    // "theme=dark": the credential-after-a-scheme rule also reads the second pair; redacting more is safe.
    expect(secrets).toEqual(new Set(["sid=abc; theme=dark", "theme=dark", "abc", "dark", "k1"]));
  });

  it("keeps a userinfo that does not decode as it is", () => {
    expect(collectConfigSecrets({ url: "http://us%E0er@127.0.0.1/" })).toEqual(new Set(["us%E0er"]));
  });

  it("adds nothing for an unparsable URL and no headers", () => {
    expect(collectConfigSecrets({ url: "not a url" }).size).toBe(0);
  });
});

describe("isSensitiveHeader", () => {
  it("knows credential headers by name", () => {
    expect(
      ["Authorization", "Cookie", "X-Api-Key", "X-Session-Id", "Proxy-Authorization"].every(isSensitiveHeader),
    ).toBe(true);
    expect(["Accept", "X-Trace", "Content-Type"].some(isSensitiveHeader)).toBe(false);
  });
});
