import { MCPToolAdapter, type MCPElicitationRequest, type MCPSamplingRequest } from "@mcp-tool-adapter/adapter";
import {
  everythingStdioServer,
  expectNoLeakedProcesses,
  startTaskTestServer,
  type TaskTestServer,
} from "@mcp-tool-adapter/test-servers";
import type { Transport } from "@modelcontextprotocol/client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createEngine2026 } from "../src/index.js";

// MCP tasks (2025-11-25) on engine-2026: SDK v2's Client no longer carries them, the engine sends
// the protocol's own task methods. Against real server-everything over stdio, and an in-process
// SDK 1.x server for sampling inside a task, timeouts and aborts (it shows the server's task state).

function textOf(result: { data: { content: unknown[] } | null }): string {
  return (result.data?.content ?? []).map((item) => (item as { text?: string }).text ?? "").join("\n");
}

describe("engine-2026 runs server-everything's task tool", () => {
  let adapter: MCPToolAdapter;
  const elicitations: MCPElicitationRequest[] = [];
  const samplings: MCPSamplingRequest[] = [];

  beforeAll(async () => {
    adapter = new MCPToolAdapter(
      { name: "everything", transport: "stdio", ...everythingStdioServer() },
      {
        engine: createEngine2026(),
        connectTimeoutMs: 20_000,
        onElicitation: (request) => {
          elicitations.push(request);
          const asked: unknown[] =
            request.mode === "form" ? ((request.requestedSchema.required as unknown[] | undefined) ?? []) : [];
          const content: Record<string, string> = asked.includes("interpretation")
            ? { interpretation: "snake" }
            : { name: "Ada", favoriteColor: "Green" };
          return { action: "accept", content };
        },
        onSampling: (request) => {
          samplings.push(request);
          return { role: "assistant", content: { type: "text", text: "sampled in a task" }, model: "m" };
        },
      },
    );
    await adapter.connect();
  });
  afterAll(async () => {
    await adapter.disconnect();
    await expectNoLeakedProcesses();
  });

  it("to its final result, the clarification the task asks for answered by onElicitation", async () => {
    expect(adapter.protocolEra).toBe("2025");
    const result = await adapter.invoke("simulate-research-query", { topic: "python", ambiguous: true });
    expect(result.error).toBeNull();
    expect(textOf(result)).toContain("# Research Report: python (snake)");
    expect(elicitations).toHaveLength(1);
    expect(elicitations[0]).toMatchObject({ mode: "form", requestedSchema: { required: ["interpretation"] } });
  });

  it("declares the client tasks capability, so the async tools are offered", async () => {
    const names = (await adapter.discoverTools()).map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(["trigger-elicitation-request-async", "trigger-sampling-request-async"]),
    );
  });

  it("runs a sampling request as a task the server polls to its result", async () => {
    const result = await adapter.invoke("trigger-sampling-request-async", { prompt: "hello", maxTokens: 20 });
    expect(result.error).toBeNull();
    const text = textOf(result);
    expect(text).toContain("[COMPLETED] Async sampling completed!");
    expect(text).toContain("sampled in a task");
    expect(samplings.at(-1)).toMatchObject({ maxTokens: 20, systemPrompt: "You are a helpful test server." });
    expect(samplings.at(-1)).not.toHaveProperty("task");
  });

  it("runs an elicitation as a task, its answer checked against the form", async () => {
    const result = await adapter.invoke("trigger-elicitation-request-async", {});
    expect(result.error).toBeNull();
    const text = textOf(result);
    expect(text).toContain("[COMPLETED] User provided the requested information!");
    expect(text).toContain("Ada");
    expect(elicitations.at(-1)).toMatchObject({ mode: "form", requestedSchema: { required: ["name"] } });
  });

  it("still answers a plain (not task) sampling request through the same handler", async () => {
    const result = await adapter.invoke("trigger-sampling-request", { prompt: "hi", maxTokens: 10 });
    expect(result.error).toBeNull();
    expect(textOf(result)).toContain("sampled in a task");
  });
});

describe("engine-2026 with an in-process task server", () => {
  let server: TaskTestServer;
  let adapter: MCPToolAdapter;
  const samplings: MCPSamplingRequest[] = [];

  async function connect(): Promise<void> {
    server = await startTaskTestServer();
    const transport = server.clientTransport as unknown as Transport;
    adapter = new MCPToolAdapter(
      { name: "tasks", transport: "stdio", command: "unused" },
      {
        engine: createEngine2026({ transport: () => transport }),
        onSampling: (request) => {
          samplings.push(request);
          return { role: "assistant", content: { type: "text", text: "short" }, model: "host-model" };
        },
      },
    );
    await adapter.connect();
    await adapter.discoverTools();
  }
  afterEach(async () => {
    await adapter.disconnect();
    await server.close();
  });

  it("answers the sampling request a task makes while it runs", async () => {
    await connect();
    const result = await adapter.invoke("summarize", { text: "a long story" });
    expect(result.error).toBeNull();
    expect(textOf(result)).toBe("summary: short");
    expect(samplings.at(-1)?.messages).toEqual([
      { role: "user", content: { type: "text", text: "Summarize: a long story" } },
    ]);
  });

  it("a call that times out cancels its task on the server", async () => {
    await connect();
    const result = await adapter.invoke("never-ending", {}, { timeoutMs: 300 });
    expect(result).toMatchObject({ success: false, errorKind: "timeout" });
    expect(server.created).toHaveLength(1);
    await expect.poll(async () => (await server.taskStore.getTask(server.created[0]!))?.status).toBe("cancelled");
  });

  it("an aborted call cancels its task on the server, and the connection goes on", async () => {
    await connect();
    const controller = new AbortController();
    const call = adapter.invoke("never-ending", {}, { signal: controller.signal });
    await expect.poll(() => server.created.length).toBe(1);
    controller.abort(new Error("user stopped it"));
    expect(await call).toMatchObject({ success: false, errorKind: "cancelled" });
    await expect.poll(async () => (await server.taskStore.getTask(server.created[0]!))?.status).toBe("cancelled");
    expect(textOf(await adapter.invoke("summarize", { text: "next" }))).toBe("summary: short");
  });

  it("a call aborted before its task id arrived cancels the task the late answer names", async () => {
    await connect();
    const controller = new AbortController();
    const inner = server.clientTransport;
    const send = inner.send.bind(inner);
    // Aborts as soon as the creating tools/call is on its way: the server answers 300 ms later.
    inner.send = async (message, options) => {
      await send(message, options);
      if ("method" in message && message.method === "tools/call") controller.abort(new Error("user gave up"));
    };
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const result = await adapter.invoke("slow-to-create", {}, { signal: controller.signal, timeoutMs: 30_000 });
      expect(result).toMatchObject({ success: false, errorKind: "cancelled" });
      expect(server.created).toHaveLength(0);
      await expect.poll(() => server.created.length, { timeout: 10_000 }).toBe(1);
      await expect
        .poll(async () => (await server.taskStore.getTask(server.created[0]!))?.status, { timeout: 10_000 })
        .toBe("cancelled");
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
