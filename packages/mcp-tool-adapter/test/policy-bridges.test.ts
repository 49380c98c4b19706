import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { approvalInterruptOn, createLangChainTools } from "@mcp-tool-adapter/langchain";
import { expectNoLeakedProcesses, memoryStdioServer } from "@mcp-tool-adapter/test-servers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pinTools } from "@mcp-tool-adapter/adapter";
import {
  createApprovalInterceptor,
  MCPServerSet,
  type ToolCallInfo,
  type ToolCallInterceptor,
  type ToolLock,
} from "../src/index.js";
import type { ApprovalPolicy, ApprovalSubject } from "../src/model-tools-entry.js";

/** The one policy, given to the set's approval interceptor and to LangChain's interrupt map alike. */
const askBeforeDestructiveWrites: ApprovalPolicy<ApprovalSubject> = (tool) =>
  tool.capabilities.writes && tool.capabilities.destructive !== false;

describe("policy through an MCPServerSet and the LangChain bridge (real server-memory)", () => {
  let dir: string;
  let servers: MCPServerSet;
  const asked: string[] = [];
  const sentMeta: Record<string, unknown>[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "mcp-policy-bridges-"));
    const launch = memoryStdioServer(join(dir, "memory.jsonl"));
    // open_nodes is annotated read-only; the user's override says it is a destructive write.
    const entry = {
      transport: "stdio" as const,
      ...launch,
      tools: { overrides: { open_nodes: { destructive: true } } },
    };
    // Approve today's definitions, then pretend read_graph's description was different when approved.
    const pinning = new MCPServerSet({ memory: entry });
    await pinning.connect();
    const pins = await pinTools(pinning.getAdapter("memory")?.discoveredTools ?? []);
    await pinning.close();
    const readGraph = pins.tools.read_graph;
    if (readGraph === undefined) throw new Error("server-memory has no read_graph");
    const lock: ToolLock = {
      lockfileVersion: 1,
      servers: {
        memory: {
          tools: {
            ...pins.tools,
            read_graph: {
              ...readGraph,
              fingerprint: "sha256:0",
              parts: { ...readGraph.parts, description: "sha256:0" },
            },
          },
        },
      },
    };
    const tagger: ToolCallInterceptor = {
      name: "tenant",
      beforeCall: (call: ToolCallInfo) => {
        sentMeta.push({ ...call.meta, tenant: "acme" });
        return { meta: { ...call.meta, tenant: "acme" } };
      },
    };
    servers = new MCPServerSet(
      { memory: entry },
      {
        pinning: { lock },
        interceptors: [
          tagger,
          createApprovalInterceptor({
            policy: askBeforeDestructiveWrites,
            approve: (call) => {
              asked.push(call.toolName);
              return false;
            },
          }),
        ],
      },
    );
    expect((await servers.connect()).ok).toBe(true);
  });

  afterAll(async () => {
    await servers.close();
    await rm(dir, { recursive: true, force: true });
    await expectNoLeakedProcesses();
  });

  it("a drifted tool never reaches LangChain; the others do", () => {
    const names = createLangChainTools(servers).map((tool) => tool.name);
    expect(names).not.toContain("memory__read_graph");
    expect(names).toContain("memory__search_nodes");
    expect(servers.getAdapter("memory")?.pinFindings?.map((finding) => finding.tool)).toEqual(["read_graph"]);
  });

  it("the same policy marks LangChain's interrupts and refuses the call at the set", async () => {
    const tools = createLangChainTools(servers);
    const interrupts = await approvalInterruptOn(tools, askBeforeDestructiveWrites);
    expect(interrupts["memory__delete_entities"]).toBe(true);
    expect(interrupts["memory__search_nodes"]).toBe(false);

    const remove = tools.find((tool) => tool.name === "memory__delete_entities");
    const answer: unknown = await remove?.invoke({ entityNames: ["Ada"] });
    expect(String(answer)).toContain('refused: interceptor "approval" refused the call to tool "delete_entities"');
    expect(asked).toEqual(["delete_entities"]);

    const search = tools.find((tool) => tool.name === "memory__search_nodes");
    const found: unknown = await search?.invoke({ query: "Ada" });
    expect(String(found)).toContain("entities");
    expect(asked).toEqual(["delete_entities"]);
    expect(sentMeta.at(-1)).toEqual({ tenant: "acme" });
  });

  it("a config override that says a tool writes is what the approval interceptor and LangChain see", async () => {
    const tools = createLangChainTools(servers);
    expect((await approvalInterruptOn(tools, askBeforeDestructiveWrites))["memory__open_nodes"]).toBe(true);
    const open = await servers.getAdapter("memory")?.invoke("open_nodes", { names: ["Ada"] });
    expect(open).toMatchObject({ success: false, errorKind: "refused" });
    expect(asked.at(-1)).toBe("open_nodes");
  });
});
