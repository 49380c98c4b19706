import type { TestTool } from "@mcp-tool-adapter/test-servers";
import { describe, expect, it } from "vitest";
import { MCPUsageError, type ToolCallInterceptor } from "../src/index.js";
import { connectedHarness, createHarness } from "./helpers.js";

/** Echoes its arguments and the `_meta` it received; counts calls through the server's callCount. */
const ECHO: TestTool = {
  name: "echo",
  annotations: { readOnlyHint: true },
  inputSchema: {
    type: "object",
    properties: { text: { type: "string" } },
    required: ["text"],
    additionalProperties: false,
  },
  handler: (args, extra) => ({
    content: [{ type: "text", text: JSON.stringify({ args, meta: extra._meta ?? null }) }],
  }),
};
const DELETE: TestTool = {
  name: "delete_file",
  inputSchema: { type: "object", properties: { path: { type: "string" } } },
};

function echoed(result: { data: { content: unknown[] } | null }): {
  args: unknown;
  meta: Record<string, unknown> | null;
} {
  const item = result.data?.content[0] as { text: string };
  return JSON.parse(item.text) as { args: unknown; meta: Record<string, unknown> | null };
}

describe("interceptors", () => {
  it("rewrite arguments and _meta in order, and the server receives the rewrite", async () => {
    const seen: string[] = [];
    const first: ToolCallInterceptor = {
      name: "upper",
      beforeCall: (call) => {
        seen.push(`first saw ${JSON.stringify(call.arguments)}`);
        return { arguments: { text: String(call.arguments.text).toUpperCase() }, meta: { tenant: "acme" } };
      },
    };
    const second: ToolCallInterceptor = {
      name: "suffix",
      beforeCall: (call) => {
        seen.push(`second saw ${JSON.stringify(call.arguments)} ${JSON.stringify(call.meta)}`);
        return { arguments: { text: `${String(call.arguments.text)}!` } };
      },
    };
    const { adapter, server } = await connectedHarness({ tools: [ECHO] }, { interceptors: [first, second] });
    const result = await adapter.invoke("echo", { text: "hi" });
    expect(result.success).toBe(true);
    expect(echoed(result)).toEqual({ args: { text: "HI!" }, meta: { tenant: "acme" } });
    expect(seen).toEqual(['first saw {"text":"hi"}', 'second saw {"text":"HI"} {"tenant":"acme"}']);
    expect(server.callCount).toBe(1);
    await adapter.disconnect();
  });

  it("validate the rewritten arguments, not the caller's", async () => {
    const breaks: ToolCallInterceptor = { name: "breaks", beforeCall: () => ({ arguments: { text: 42 } }) };
    const { adapter, server } = await connectedHarness({ tools: [ECHO] }, { interceptors: [breaks] });
    const result = await adapter.invoke("echo", { text: "fine" });
    expect(result).toMatchObject({ success: false, errorKind: "validation" });
    expect(server.callCount).toBe(0);
    await adapter.disconnect();
  });

  it("refuse with a reason: the call is not sent and onError sees the refusal", async () => {
    const errors: string[] = [];
    const guard: ToolCallInterceptor = {
      name: "no-deletes",
      beforeCall: (call) =>
        call.capabilities.writes ? { refuse: "deleting files is not allowed in this session." } : undefined,
      onError: (_call, result) => {
        errors.push(result.errorKind ?? "");
      },
    };
    const { adapter, server } = await connectedHarness({ tools: [ECHO, DELETE] }, { interceptors: [guard] });
    const refused = await adapter.invoke("delete_file", { path: "/tmp/x" });
    expect(refused).toMatchObject({ success: false, errorKind: "refused", data: null });
    expect(refused.error).toBe(
      'refused: interceptor "no-deletes" refused the call to tool "delete_file" on MCP server "test-server": deleting files is not allowed in this session',
    );
    expect(server.callCount).toBe(0);
    expect(errors).toEqual(["refused"]);
    expect((await adapter.invoke("echo", { text: "ok" })).success).toBe(true);
    await adapter.disconnect();
  });

  it("see the capabilities with the adapter's capabilityOverrides applied", async () => {
    const guard: ToolCallInterceptor = {
      name: "no-writes",
      beforeCall: (call) => (call.capabilities.writes ? { refuse: "writes need approval" } : undefined),
    };
    const { adapter, server } = await connectedHarness(
      { tools: [ECHO, DELETE] },
      { interceptors: [guard], capabilityOverrides: { echo: { writes: true }, delete_file: { readOnly: true } } },
    );
    expect(await adapter.invoke("echo", { text: "x" })).toMatchObject({ success: false, errorKind: "refused" });
    expect(server.callCount).toBe(0);
    expect((await adapter.invoke("delete_file", { path: "/tmp/x" })).success).toBe(true);
    expect(server.callCount).toBe(1);
    await adapter.disconnect();
  });

  it("transform results after the call, the first interceptor last", async () => {
    const order: string[] = [];
    const tag = (label: string): ToolCallInterceptor => ({
      name: label,
      afterCall: (_call, result) => {
        order.push(label);
        return { ...result, data: { content: [...(result.data?.content ?? []), { type: "text", text: label }] } };
      },
    });
    const { adapter } = await connectedHarness({ tools: [ECHO] }, { interceptors: [tag("a"), tag("b")] });
    const result = await adapter.invoke("echo", { text: "x" });
    expect(order).toEqual(["b", "a"]);
    expect(result.data?.content.slice(1)).toEqual([
      { type: "text", text: "b" },
      { type: "text", text: "a" },
    ]);
    await adapter.disconnect();
  });

  it("a throwing or rejecting hook fails that call only, classified, and the adapter goes on", async () => {
    let explode = true;
    const flaky: ToolCallInterceptor = {
      name: "flaky",
      beforeCall: () => {
        if (explode) throw new Error("policy store unreachable");
      },
    };
    const late: ToolCallInterceptor = { name: "late", afterCall: () => Promise.reject(new TypeError("bad shape")) };
    const { adapter, server } = await connectedHarness({ tools: [ECHO] }, { interceptors: [flaky, late] });
    const before = await adapter.invoke("echo", { text: "x" });
    expect(before).toMatchObject({ success: false, errorKind: "interceptor_failed" });
    expect(before.error).toContain(
      'interceptor "flaky" failed in beforeCall for tool "echo" on MCP server "test-server"',
    );
    expect(before.error).toContain("policy store unreachable");
    expect(server.callCount).toBe(0);
    explode = false;
    const after = await adapter.invoke("echo", { text: "x" });
    expect(after).toMatchObject({ success: false, errorKind: "interceptor_failed" });
    expect(after.error).toContain('interceptor "late" failed in afterCall');
    expect(after.error).toContain("The tool itself ran and succeeded; its result was discarded.");
    expect(after.data).not.toBeNull();
    expect(server.callCount).toBe(1);
    await adapter.disconnect();
  });

  it("a hook past its timeout fails the call and sees its signal aborted", async () => {
    let aborted = false;
    const stuck: ToolCallInterceptor = {
      name: "stuck",
      timeoutMs: 20,
      beforeCall: (call) =>
        new Promise<undefined>((resolve) => {
          call.signal.addEventListener("abort", () => {
            aborted = true;
            resolve(undefined);
          });
        }),
    };
    const { adapter, server } = await connectedHarness({ tools: [ECHO] }, { interceptors: [stuck] });
    const result = await adapter.invoke("echo", { text: "x" });
    expect(result).toMatchObject({ success: false, errorKind: "interceptor_failed" });
    expect(result.error).toContain("did not finish within 20 ms");
    expect(aborted).toBe(true);
    expect(server.callCount).toBe(0);
    await adapter.disconnect();
  });

  it("a hook that returns a non-object decision or result fails the call with what to return", async () => {
    const odd: ToolCallInterceptor = { name: "odd", beforeCall: () => "yes" as never };
    const { adapter } = await connectedHarness({ tools: [ECHO] }, { interceptors: [odd] });
    const result = await adapter.invoke("echo", { text: "x" });
    expect(result.errorKind).toBe("interceptor_failed");
    expect(result.error).toContain('return nothing, { arguments?, meta? } or { refuse: "reason" }');
    await adapter.disconnect();
  });

  it("are checked at construction: a missing name or a non-function hook is an MCPUsageError", () => {
    expect(() => createHarness({}, { interceptors: [{ name: "" }] })).toThrow(MCPUsageError);
    expect(() => createHarness({}, { interceptors: [{ name: "x", beforeCall: 3 as never }] })).toThrow(
      /beforeCall must be a function/u,
    );
    expect(() => createHarness({}, { interceptors: [{ name: "x", timeoutMs: -1 }] })).toThrow(/timeoutMs/u);
  });
});
