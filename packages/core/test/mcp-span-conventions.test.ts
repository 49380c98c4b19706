import { describe, expect, it } from "vitest";
import { describeMCPRequestSpan, OTEL_GLOBAL_KEY, otelRegistered } from "../src/index.js";

describe("describeMCPRequestSpan", () => {
  it("names a tool call after its tool, as an execute_tool operation", () => {
    expect(describeMCPRequestSpan("tools/call", { name: "echo", arguments: {} })).toEqual({
      name: "tools/call echo",
      attributes: {
        "mcp.method.name": "tools/call",
        "gen_ai.tool.name": "echo",
        "gen_ai.operation.name": "execute_tool",
      },
    });
  });

  it("names a prompt get after its prompt", () => {
    expect(describeMCPRequestSpan("prompts/get", { name: "simple-prompt" })).toEqual({
      name: "prompts/get simple-prompt",
      attributes: { "mcp.method.name": "prompts/get", "gen_ai.prompt.name": "simple-prompt" },
    });
  });

  it("keeps a resource URI out of the name and the low-cardinality attributes", () => {
    for (const method of ["resources/read", "resources/subscribe", "resources/unsubscribe"]) {
      expect(describeMCPRequestSpan(method, { uri: "demo://resource/static/document/1" })).toEqual({
        name: method,
        attributes: { "mcp.method.name": method },
        resourceUri: "demo://resource/static/document/1",
      });
    }
  });

  it("uses the method alone for a list, a completion, and params without a usable target", () => {
    for (const [method, params] of [
      ["tools/list", undefined],
      ["resources/templates/list", { cursor: "2" }],
      ["completion/complete", { ref: { type: "ref/prompt", name: "p" }, argument: { name: "a", value: "" } }],
      ["tools/call", { name: 42 }],
      ["prompts/get", {}],
    ] as const) {
      expect(describeMCPRequestSpan(method, params)).toEqual({
        name: method,
        attributes: { "mcp.method.name": method },
      });
    }
  });
});

describe("otelRegistered", () => {
  const globals = globalThis as Record<symbol, unknown>;

  it("reads what the OpenTelemetry API 1.x registered under its global key", () => {
    const before = globals[OTEL_GLOBAL_KEY];
    try {
      Reflect.deleteProperty(globals, OTEL_GLOBAL_KEY);
      expect(otelRegistered(["trace", "propagation"])).toBe(false);
      // What the API leaves once something was registered and then disabled: the version alone.
      globals[OTEL_GLOBAL_KEY] = { version: "1.9.0" };
      expect(otelRegistered(["trace", "propagation"])).toBe(false);
      globals[OTEL_GLOBAL_KEY] = { version: "1.9.0", context: {} };
      expect(otelRegistered(["trace", "propagation"])).toBe(false);
      expect(otelRegistered(["context"])).toBe(true);
      globals[OTEL_GLOBAL_KEY] = { version: "1.9.0", propagation: {} };
      expect(otelRegistered(["trace", "propagation"])).toBe(true);
    } finally {
      if (before === undefined) Reflect.deleteProperty(globals, OTEL_GLOBAL_KEY);
      else globals[OTEL_GLOBAL_KEY] = before;
    }
  });
});
