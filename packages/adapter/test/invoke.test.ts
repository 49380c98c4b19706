import { getEventListeners } from "node:events";
import {
  createInMemoryTestServer,
  withCallFault,
  type TestTool,
  type TestToolHandler,
} from "@mcp-tool-adapter/test-servers";
import { describe, expect, it } from "vitest";
import { MCPNotConnectedError, MCPToolAdapter, type MCPProgress } from "../src/index.js";
import { BUILT_IN_ENGINES, connectedHarness, createHarness, sleep, STDIO_CONFIG, waitFor } from "./helpers.js";

const CREATE_ISSUE: TestTool = {
  name: "create_issue",
  inputSchema: {
    type: "object",
    properties: { title: { type: "string" }, body: { type: "string" } },
    required: ["title", "body"],
    additionalProperties: false,
  },
};

/** Waits `ms`, or until the server is told to cancel; records what happened. */
function slowTool(name: string, ms: number): TestTool & { cancelled: number } {
  const tool = {
    name,
    cancelled: 0,
    handler: ((_args, extra) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve({ content: [{ type: "text", text: "done" }] }), ms);
        extra.signal.addEventListener("abort", () => {
          tool.cancelled += 1;
          clearTimeout(timer);
          resolve({ content: [] });
        });
      })) as TestToolHandler,
  };
  return tool;
}

/** Sends `steps` progress notifications `intervalMs` apart, then answers. */
function progressTool(name: string, steps: number, intervalMs: number): TestTool {
  return {
    name,
    handler: async (_args, extra) => {
      const token = extra._meta?.progressToken;
      for (let step = 1; step <= steps; step += 1) {
        await sleep(intervalMs);
        if (extra.signal.aborted) return { content: [] };
        if (token !== undefined)
          await extra.sendNotification({
            method: "notifications/progress",
            params: { progressToken: token, progress: step, total: steps, message: `step ${step}` },
          });
      }
      return { content: [{ type: "text", text: "finished" }] };
    },
  };
}

describe("invoke", () => {
  it("calls a tool and returns its content", async () => {
    const { adapter } = await connectedHarness({ tools: [CREATE_ISSUE] });
    await adapter.discoverTools();
    const result = await adapter.invoke("create_issue", { title: "Bug", body: "Fix it" });
    expect(result).toEqual({
      success: true,
      data: { content: [{ type: "text", text: '{"title":"Bug","body":"Fix it"}' }] },
      error: null,
      durationMs: expect.any(Number) as number,
    });
    expect(result.errorKind).toBeUndefined();
    await adapter.disconnect();
  });

  it("throws MCPNotConnectedError when not connected", async () => {
    const { adapter } = createHarness({ tools: [CREATE_ISSUE] });
    const error = await adapter.invoke("create_issue", {}).catch((e: unknown) => e);
    expect(MCPNotConnectedError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain("not connected");
  });

  it("discovers lazily when nothing was discovered yet", async () => {
    const { adapter } = await connectedHarness({ tools: [CREATE_ISSUE] });
    expect((await adapter.invoke("create_issue", { title: "a", body: "b" })).success).toBe(true);
    expect(adapter.discoveredTools.map((t) => t.name)).toEqual(["create_issue"]);
    await adapter.disconnect();
  });

  it("an unknown tool is a not-found result", async () => {
    const { adapter, server } = await connectedHarness({ tools: [CREATE_ISSUE] });
    const result = await adapter.invoke("nonexistent_tool", {});
    expect(result).toMatchObject({ success: false, data: null, errorKind: "not_found" });
    expect(result.error).toContain("not found");
    expect(server.callCount).toBe(0);
    await adapter.disconnect();
  });

  it("a tool excluded by the filter is not found", async () => {
    const { adapter } = await connectedHarness({ tools: [CREATE_ISSUE, { name: "other" }] });
    await adapter.discoverTools({ exclude: ["other"] });
    expect(await adapter.invoke("other", {})).toMatchObject({ success: false, errorKind: "not_found" });
    await adapter.disconnect();
  });

  it("arguments that break the input schema fail validation and nothing is sent", async () => {
    const { adapter, server } = await connectedHarness({ tools: [CREATE_ISSUE] });
    const result = await adapter.invoke("create_issue", { wrong_field: 123 });
    expect(result).toMatchObject({ success: false, data: null, errorKind: "validation" });
    expect(result.error).toMatch(/^validation failed: /);
    expect(result.error).toContain("title");
    expect(server.callCount).toBe(0);
    expect((await adapter.invoke("create_issue", [] as never)).errorKind).toBe("validation");
    expect((await adapter.invoke("create_issue", null as never)).errorKind).toBe("validation");
    expect(server.callCount).toBe(0);
    await adapter.disconnect();
  });

  it("an isError result is a server error with the server's text, content kept in data", async () => {
    const { adapter } = await connectedHarness({
      tools: [
        {
          name: "bad_tool",
          handler: () => ({ isError: true, content: [{ type: "text", text: "repository is archived" }] }),
        },
      ],
    });
    const result = await adapter.invoke("bad_tool", {});
    expect(result).toMatchObject({
      success: false,
      errorKind: "server_error",
      error: "server error: repository is archived",
    });
    expect(result.data?.content).toEqual([{ type: "text", text: "repository is archived" }]);
    await adapter.disconnect();
  });

  it("a JSON-RPC error from the server is a server error", async () => {
    const { adapter } = await connectedHarness({
      tools: [
        {
          name: "crash_tool",
          handler: () => {
            throw new Error("kaboom");
          },
        },
      ],
    });
    const result = await adapter.invoke("crash_tool", {});
    expect(result).toMatchObject({ success: false, data: null, errorKind: "server_error" });
    expect(result.error).toMatch(/^server error: .*kaboom/);
    await adapter.disconnect();
  });

  it("a transport failure during the call is a server error; the connection stays usable", async () => {
    const server = createInMemoryTestServer({ tools: [{ name: "crash_tool" }, { name: "echo" }] });
    const adapter = new MCPToolAdapter(STDIO_CONFIG, {
      transport: async () => withCallFault(await server.connect(), { tool: "crash_tool" }),
    });
    await adapter.connect();
    const result = await adapter.invoke("crash_tool", {});
    expect(result).toMatchObject({ success: false, errorKind: "server_error" });
    expect(result.error).toContain("server error");
    expect(result.error).toContain("injected fault");
    expect((await adapter.invoke("echo", {})).success).toBe(true);
    await adapter.disconnect();
  });

  it("a connection dropped during the call is connection lost", async () => {
    const server = createInMemoryTestServer({ tools: [{ name: "drop" }] });
    const adapter = new MCPToolAdapter(STDIO_CONFIG, {
      transport: async () => withCallFault(await server.connect(), { tool: "drop", mode: "disconnect" }),
      logger: {},
    });
    await adapter.connect();
    const result = await adapter.invoke("drop", {});
    expect(result).toMatchObject({ success: false, errorKind: "connection_lost" });
    expect(result.error).toContain("connection lost");
    expect(adapter.isConnected).toBe(false);
  });

  it("past the deadline the result is a timeout and the server is told to cancel", async () => {
    const slow = slowTool("slow_tool", 10_000);
    const { adapter } = await connectedHarness({ tools: [slow] });
    const result = await adapter.invoke("slow_tool", {}, { timeoutMs: 50 });
    expect(result).toMatchObject({ success: false, data: null, errorKind: "timeout" });
    expect(result.error).toMatch(/^timeout after 50 ms/);
    await waitFor(() => slow.cancelled === 1);
    await adapter.disconnect();
  });

  it("uses defaultTimeoutMs when the call gives none", async () => {
    const { adapter } = await connectedHarness({ tools: [slowTool("slow_tool", 10_000)] }, { defaultTimeoutMs: 40 });
    expect((await adapter.invoke("slow_tool", {})).error).toMatch(/^timeout after 40 ms/);
    await adapter.disconnect();
  });

  it("aborting the caller's signal cancels the call (not a timeout) and tells the server", async () => {
    const slow = slowTool("slow_tool", 10_000);
    const { adapter } = await connectedHarness({ tools: [slow] });
    const controller = new AbortController();
    const pending = adapter.invoke("slow_tool", {}, { signal: controller.signal, timeoutMs: 5_000 });
    await waitFor(() => getEventListeners(controller.signal, "abort").length === 1);
    await sleep(10);
    controller.abort(new Error("user pressed stop"));
    const result = await pending;
    expect(result).toMatchObject({ success: false, data: null, errorKind: "cancelled" });
    expect(result.error).toContain("cancelled");
    expect(result.error).toContain("user pressed stop");
    await waitFor(() => slow.cancelled === 1);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    await adapter.disconnect();
  });

  it("an already aborted signal is cancelled before anything is sent", async () => {
    const { adapter, server } = await connectedHarness({ tools: [{ name: "echo" }] });
    await adapter.discoverTools();
    const result = await adapter.invoke("echo", {}, { signal: AbortSignal.abort() });
    expect(result).toMatchObject({ success: false, errorKind: "cancelled" });
    expect(server.callCount).toBe(0);
    await adapter.disconnect();
  });

  it.each(BUILT_IN_ENGINES)(
    "leaves no listener on a long-lived caller signal (engine: $engine)",
    async ({ engine }) => {
      const { adapter } = await connectedHarness({ tools: [{ name: "echo" }] }, engine === undefined ? {} : { engine });
      const signal = new AbortController().signal;
      for (let i = 0; i < 50; i += 1) await adapter.invoke("echo", { i }, { signal });
      expect(getEventListeners(signal, "abort")).toHaveLength(0);
      await adapter.disconnect();
    },
  );

  it("progress notifications reach onProgress; a throwing callback does not break the call", async () => {
    const { adapter } = await connectedHarness({ tools: [progressTool("work", 3, 1)] }, { logger: {} });
    const seen: MCPProgress[] = [];
    const result = await adapter.invoke("work", {}, { onProgress: (p) => seen.push(p) });
    expect(result.success).toBe(true);
    expect(seen).toEqual([1, 2, 3].map((progress) => ({ progress, total: 3, message: `step ${progress}` })));
    const again = await adapter.invoke(
      "work",
      {},
      {
        onProgress: () => {
          throw new Error("callback bug");
        },
      },
    );
    expect(again.success).toBe(true);
    await adapter.disconnect();
  });

  it("resetTimeoutOnProgress keeps a call alive while progress arrives", async () => {
    const { adapter } = await connectedHarness({ tools: [progressTool("work", 8, 50)] });
    const withReset = await adapter.invoke(
      "work",
      {},
      { timeoutMs: 300, onProgress: () => undefined, resetTimeoutOnProgress: true },
    );
    expect(withReset.success).toBe(true);
    const withoutReset = await adapter.invoke("work", {}, { timeoutMs: 300, onProgress: () => undefined });
    expect(withoutReset.errorKind).toBe("timeout");
    await adapter.disconnect();
  });

  it("maxTotalTimeoutMs bounds a call that keeps sending progress", async () => {
    const { adapter } = await connectedHarness({ tools: [progressTool("endless", 1_000, 20)] });
    const result = await adapter.invoke(
      "endless",
      {},
      { timeoutMs: 5_000, onProgress: () => undefined, resetTimeoutOnProgress: true, maxTotalTimeoutMs: 150 },
    );
    expect(result).toMatchObject({ success: false, errorKind: "timeout" });
    expect(result.error).toMatch(/^timeout after 150 ms/);
    await adapter.disconnect();
  });
});

describe("result shapes", () => {
  it("a bare content list (MCP 1.4.0) becomes { content: list }", async () => {
    const { adapter } = await connectedHarness({
      tools: [{ name: "fetch_data", handler: () => [{ type: "text", text: "row" }] }],
    });
    const result = await adapter.invoke("fetch_data", {});
    expect(result).toMatchObject({ success: true, data: { content: [{ type: "text", text: "row" }] } });
    expect(result.data?.content).toHaveLength(1);
    await adapter.disconnect();
  });

  it("the 2024-10-07 toolResult shape gets a content list too", async () => {
    const { adapter } = await connectedHarness({
      tools: [{ name: "old", handler: () => ({ toolResult: { rows: 2 } }) }],
    });
    const result = await adapter.invoke("old", {});
    expect(result.success).toBe(true);
    expect(result.data).toEqual({ toolResult: { rows: 2 }, content: [{ type: "text", text: '{"rows":2}' }] });
    await adapter.disconnect();
  });

  it("a result without content gets an empty content list", async () => {
    const { adapter } = await connectedHarness({ tools: [{ name: "get_status", handler: () => ({}) }] });
    const result = await adapter.invoke("get_status", {});
    expect(result).toMatchObject({ success: true, data: { content: [] } });
    expect(Array.isArray(result.data?.content)).toBe(true);
    await adapter.disconnect();
  });

  const PAIR_OUTPUT = {
    type: "object",
    properties: { pair: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], items: false } },
    required: ["pair"],
  };

  it("keeps structuredContent and validates it against a 2020-12 outputSchema", async () => {
    let answer: unknown = { pair: ["a", 1] };
    const { adapter } = await connectedHarness({
      tools: [
        {
          name: "pair",
          outputSchema: PAIR_OUTPUT as never,
          handler: () => ({ content: [], structuredContent: answer }),
        },
      ],
    });
    const ok = await adapter.invoke("pair", {});
    expect(ok).toMatchObject({ success: true, data: { structuredContent: { pair: ["a", 1] } } });
    answer = { pair: ["a", "b"] }; // prefixItems is 2020-12: a draft-07 validator would accept this
    const bad = await adapter.invoke("pair", {});
    expect(bad).toMatchObject({
      success: false,
      errorKind: "validation",
      data: { structuredContent: { pair: ["a", "b"] } },
    });
    expect(bad.error).toMatch(/^validation failed: structuredContent of tool "pair" does not match its output schema/);
    answer = undefined;
    expect((await adapter.invoke("pair", {})).error).toContain("returned no structuredContent");
    await adapter.disconnect();
  });

  it("does not validate structuredContent of an isError result", async () => {
    const { adapter } = await connectedHarness({
      tools: [
        {
          name: "pair",
          outputSchema: PAIR_OUTPUT as never,
          handler: () => ({
            isError: true,
            content: [{ type: "text", text: "nope" }],
            structuredContent: { wrong: true },
          }),
        },
      ],
    });
    expect(await adapter.invoke("pair", {})).toMatchObject({
      success: false,
      errorKind: "server_error",
      error: "server error: nope",
    });
    await adapter.disconnect();
  });

  it("refuses a result larger than maxResultBytes", async () => {
    const big = "é".repeat(3_000); // 6000 bytes in UTF-8, 3000 UTF-16 units
    const { adapter } = await connectedHarness(
      { tools: [{ name: "big", handler: () => ({ content: [{ type: "text", text: big }] }) }, { name: "small" }] },
      { maxResultBytes: 5_000 },
    );
    const result = await adapter.invoke("big", {});
    expect(result).toMatchObject({ success: false, data: null, errorKind: "result_too_large" });
    expect(result.error).toContain("more than 5000 bytes");
    expect((await adapter.invoke("small", {})).success).toBe(true);
    await adapter.disconnect();
  });
});

describe("durationMs", () => {
  it("is measured on the injected clock for successes and failures", async () => {
    let ticks = 0;
    const now = () => (ticks += 7);
    const { adapter } = await connectedHarness({ tools: [{ name: "echo" }] }, { now });
    await adapter.discoverTools();
    expect((await adapter.invoke("echo", {})).durationMs).toBe(7);
    expect((await adapter.invoke("missing", {})).durationMs).toBe(7);
    expect((await adapter.invoke("echo", [] as never)).durationMs).toBe(7);
    await adapter.disconnect();
  });

  it("is a real elapsed time by default", async () => {
    const { adapter } = await connectedHarness({ tools: [slowTool("slow", 30)] });
    const result = await adapter.invoke("slow", {});
    expect(result.success).toBe(true);
    expect(result.durationMs).toBeGreaterThanOrEqual(25);
    await adapter.disconnect();
  });
});
