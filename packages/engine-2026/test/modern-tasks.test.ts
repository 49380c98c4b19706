import { MCPToolAdapter, type MCPElicitationRequest, type MCPSamplingRequest } from "@mcp-tool-adapter/adapter";
import { startV2TaskHttpServer, type V2TaskHttpServer } from "@mcp-tool-adapter/test-servers";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createEngine2026 } from "../src/index.js";

// Tasks on 2026-07-28 (the Tasks extension, io.modelcontextprotocol/tasks): a real SDK v2 server
// over streamable HTTP, modern-only, whose tools answer with tasks (the SDK server has no tasks of
// its own, so test-servers adds the extension's methods to it).

let server: V2TaskHttpServer;
const adapters: MCPToolAdapter[] = [];
const elicitations: MCPElicitationRequest[] = [];
const samplings: MCPSamplingRequest[] = [];

beforeAll(async () => {
  server = await startV2TaskHttpServer();
});
afterEach(async () => {
  await Promise.all(adapters.splice(0).map((adapter) => adapter.disconnect()));
  elicitations.length = 0;
  samplings.length = 0;
});
afterAll(async () => {
  await server.close();
});

function textOf(result: { data: { content: unknown[] } | null }): string {
  return (result.data?.content ?? []).map((item) => (item as { text?: string }).text ?? "").join("\n");
}

async function connected(options: { elicit?: "accept" | "decline" | "throw" } = {}): Promise<MCPToolAdapter> {
  const adapter = new MCPToolAdapter(
    { name: "tasks", transport: "streamable-http", url: server.url, protocol: "2026-07-28" },
    {
      engine: createEngine2026(),
      defaultTimeoutMs: 15_000,
      onElicitation: (request) => {
        elicitations.push(request);
        if (options.elicit === "throw") throw new Error("the user closed the dialog");
        return options.elicit === "decline"
          ? { action: "decline" }
          : { action: "accept", content: { interpretation: "the snake" } };
      },
      onSampling: (request) => {
        samplings.push(request);
        return { role: "assistant", content: { type: "text", text: "pythons are large snakes" }, model: "host-model" };
      },
    },
  );
  adapters.push(adapter);
  await adapter.connect();
  return adapter;
}

describe("engine-2026 runs 2026-07-28 tasks", () => {
  it("to the tool's result, with an elicitation and a sampling request answered inside the task", async () => {
    const adapter = await connected();
    expect(adapter.protocolEra).toBe("2026-07-28");
    const result = await adapter.invoke("research", { topic: "python" });
    expect(result.error).toBeNull();
    expect(textOf(result)).toBe("report on python (the snake): pythons are large snakes");
    expect(elicitations).toHaveLength(1);
    expect(elicitations[0]).toMatchObject({ mode: "form", message: "Which python do you mean?" });
    expect(samplings[0]?.messages).toEqual([{ role: "user", content: { type: "text", text: "Summarize python" } }]);
    const task = server.tasks.at(-1);
    expect(task).toMatchObject({ tool: "research", status: "completed" });
    expect(Object.keys(task?.inputResponses ?? {}).sort()).toEqual(["confirm", "summary"]);
    // The protocol's own task methods, no 2025 ones: polled with tasks/get, answered with tasks/update.
    expect(server.methods).toContain("tasks/get");
    expect(server.methods).toContain("tasks/update");
    expect(server.methods).not.toContain("tasks/result");
  });

  it("passes a declined elicitation on to the task", async () => {
    const adapter = await connected({ elicit: "decline" });
    const result = await adapter.invoke("research", { topic: "java" });
    expect(textOf(result)).toBe("no report (decline)");
    expect(samplings).toHaveLength(0);
  });

  it("fails the call when a handler fails, and cancels the task", async () => {
    const adapter = await connected({ elicit: "throw" });
    const result = await adapter.invoke("research", { topic: "rust" });
    expect(result).toMatchObject({ success: false, errorKind: "server_error" });
    expect(result.error).toContain("elicitation/create handler failed");
    expect(result.error).toContain("the user closed the dialog");
    await expect.poll(() => server.tasks.at(-1)?.status).toBe("cancelled");
  });

  it("reports a failed task as the server's error", async () => {
    const adapter = await connected();
    const result = await adapter.invoke("broken", {});
    expect(result).toMatchObject({ success: false, errorKind: "server_error" });
    expect(result.error).toContain("the research database is down");
  });

  it("a call that times out cancels its task on the server", async () => {
    const adapter = await connected();
    const result = await adapter.invoke("never-ending", {}, { timeoutMs: 400 });
    expect(result).toMatchObject({ success: false, errorKind: "timeout" });
    await expect.poll(() => server.tasks.at(-1)?.status).toBe("cancelled");
    expect(server.methods).toContain("tasks/cancel");
  });

  it("an aborted call cancels its task, and the connection goes on", async () => {
    const adapter = await connected();
    const controller = new AbortController();
    const polls = (): number => server.methods.filter((method) => method === "tasks/get").length;
    const before = polls();
    const call = adapter.invoke("never-ending", {}, { signal: controller.signal });
    // Aborted once the client has the task (it polls it), so there is a task to cancel.
    await expect.poll(polls).toBeGreaterThan(before);
    controller.abort(new Error("user stopped it"));
    expect(await call).toMatchObject({ success: false, errorKind: "cancelled" });
    await expect.poll(() => server.tasks.at(-1)?.status).toBe("cancelled");
    expect(textOf(await adapter.invoke("plain", {}))).toBe("plain: ok");
  });

  it("a call aborted before its task arrived cancels the task the late answer carries", async () => {
    const adapter = await connected();
    const controller = new AbortController();
    const calls = (): number => server.methods.filter((method) => method === "tools/call").length;
    const before = calls();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const call = adapter.invoke("slow-to-create", {}, { signal: controller.signal });
      // The server has the call and answers it 300 ms later: the abort comes before the task does.
      await expect.poll(calls, { interval: 5 }).toBeGreaterThan(before);
      const tasksBefore = server.tasks.length;
      controller.abort(new Error("user gave up"));
      expect(await call).toMatchObject({ success: false, errorKind: "cancelled" });
      await expect.poll(() => server.tasks.length, { timeout: 10_000 }).toBe(tasksBefore + 1);
      await expect.poll(() => server.tasks.at(-1)?.status, { timeout: 10_000 }).toBe("cancelled");
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
