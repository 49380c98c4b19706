import { getEventListeners } from "node:events";
import { createInMemoryTestServer, type TestTool } from "@mcp-tool-adapter/test-servers";
import { ToolRegistry } from "@mcp-tool-adapter/registry";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MCPNotConnectedError, MCPToolAdapter, type MCPToolErrorKind } from "../src/index.js";
import { sleep, STDIO_CONFIG } from "./helpers.js";

/** A small deterministic PRNG so a failing run can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

const ERROR_KINDS = new Set<MCPToolErrorKind>([
  "not_found",
  "validation",
  "timeout",
  "cancelled",
  "server_error",
  "connection_lost",
  "result_too_large",
]);

describe("stress: concurrent invokes, discoveries, disconnects and reconnects", () => {
  const unhandled: unknown[] = [];
  const record = (reason: unknown): void => {
    unhandled.push(reason);
  };
  beforeEach(() => {
    unhandled.length = 0;
    process.on("unhandledRejection", record);
  });
  afterEach(() => {
    process.off("unhandledRejection", record);
  });

  it("settles every operation, leaks nothing and rejects only with not-connected", async () => {
    const tools: TestTool[] = [
      { name: "echo" },
      { name: "strict", inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] } },
      {
        name: "slow",
        handler: async (_args, extra) => {
          await sleep(3);
          return extra.signal.aborted ? { content: [] } : { content: [{ type: "text", text: "late" }] };
        },
      },
      { name: "fails", handler: () => ({ isError: true, content: [{ type: "text", text: "no" }] }) },
    ];
    const server = createInMemoryTestServer({ tools, pageSize: 2 });
    const adapter = new MCPToolAdapter(STDIO_CONFIG, {
      transport: () => server.connect(),
      logger: {},
      defaultTimeoutMs: 2_000,
    });
    const registry = new ToolRegistry();
    const sharedSignal = new AbortController().signal;
    const processListenersBefore = process.listenerCount("exit") + process.listenerCount("unhandledRejection");
    await adapter.connect();

    const counts = {
      started: 0,
      settled: 0,
      results: 0,
      notConnected: 0,
      lifecycle: 0,
      byKind: new Map<string, number>(),
    };
    const unexpected: unknown[] = [];
    const note = (kind: string) => counts.byKind.set(kind, (counts.byKind.get(kind) ?? 0) + 1);

    async function operation(rand: () => number): Promise<void> {
      const pick = rand();
      if (pick < 0.55) {
        const name = ["echo", "strict", "slow", "fails", "missing"][Math.floor(rand() * 5)]!;
        const args = name === "strict" && rand() < 0.5 ? { n: "not a number" } : { n: 1 };
        const controller = rand() < 0.1 ? new AbortController() : undefined;
        if (controller) setTimeout(() => controller.abort(), 1);
        const result = await adapter.invoke(name, args, {
          signal: controller?.signal ?? sharedSignal,
          timeoutMs: rand() < 0.05 ? 1 : 2_000,
        });
        counts.results += 1;
        if (result.success) note("success");
        else {
          expect(ERROR_KINDS.has(result.errorKind!)).toBe(true);
          expect(typeof result.error).toBe("string");
          note(result.errorKind!);
        }
        expect(result.durationMs).toBeGreaterThanOrEqual(0);
      } else if (pick < 0.7) {
        await adapter.discoverTools(rand() < 0.5 ? undefined : { exclude: ["fails"] });
        note("discover");
      } else if (pick < 0.73) {
        await adapter.disconnect();
        counts.lifecycle += 1;
      } else if (pick < 0.8) {
        await adapter.reconnect();
        counts.lifecycle += 1;
      } else if (pick < 0.95) {
        await adapter.connect();
        counts.lifecycle += 1;
      } else if (pick < 0.98) {
        await adapter.registerTools(registry, "stress");
        note("register");
      } else {
        await (rand() < 0.5
          ? server.addTool({ name: `extra_${Math.floor(rand() * 5)}` })
          : server.removeTool(`extra_${Math.floor(rand() * 5)}`));
        note("list_changed");
      }
    }

    async function worker(seed: number, operations: number): Promise<void> {
      const rand = random(seed);
      for (let i = 0; i < operations; i += 1) {
        counts.started += 1;
        try {
          await operation(rand);
        } catch (error) {
          if (MCPNotConnectedError.isInstance(error)) {
            counts.notConnected += 1;
            // Recover as a caller would; the connect itself must not fail against this server.
            await adapter.connect().catch((e: unknown) => unexpected.push(e));
          } else unexpected.push(error);
        } finally {
          counts.settled += 1;
        }
      }
    }

    const workers = Array.from({ length: 12 }, (_, i) => worker(i + 1, 100));
    const all = Promise.all(workers);
    const guard = sleep(50_000).then(() => "timed out");
    expect(await Promise.race([all.then(() => "done"), guard])).toBe("done");

    expect(unexpected).toEqual([]);
    expect(counts.started).toBe(1_200);
    expect(counts.settled).toBe(1_200);
    expect(counts.lifecycle).toBeGreaterThan(150);
    expect(counts.results).toBeGreaterThan(150);
    expect(counts.byKind.get("success") ?? 0).toBeGreaterThan(0);
    // Operations really interleaved with lifecycle changes.
    expect(counts.notConnected + (counts.byKind.get("connection_lost") ?? 0)).toBeGreaterThan(0);

    await adapter.connect();
    await adapter.discoverTools();
    expect((await adapter.invoke("echo", { ok: true })).success).toBe(true);
    await adapter.disconnect();
    await server.close();
    await sleep(20);

    expect(unhandled).toEqual([]);
    expect(getEventListeners(sharedSignal, "abort")).toHaveLength(0);
    expect(process.listenerCount("exit") + process.listenerCount("unhandledRejection")).toBe(processListenersBefore);
  });
});
