import { join } from "node:path";
import { createCodeMode, type CodeMode } from "@mcp-tool-adapter/code-mode";
import { createLangChainTools } from "@mcp-tool-adapter/langchain";
import {
  createTempDirectory,
  expectNoLeakedProcesses,
  memoryStdioServer,
  type TempDirectory,
} from "@mcp-tool-adapter/test-servers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApprovalInterceptor, MCPServerSet, type ToolCallInfo } from "../src/index.js";

const SERVER_TEST_MS = 60_000;

// Code mode takes an MCPServerSet as it is; it cannot depend on this package, so the check that
// the adapter's approval policy holds for every call a program makes lives here.
describe("code mode over an MCPServerSet with the approval policy (real server-memory)", () => {
  let temp: TempDirectory;
  let servers: MCPServerSet;
  let codeMode: CodeMode;
  const asked: string[] = [];
  let approve = true;

  beforeAll(async () => {
    temp = await createTempDirectory("code-mode-approval-");
    servers = new MCPServerSet(
      { memory: { transport: "stdio", ...memoryStdioServer(join(temp.path, "memory.jsonl")) } },
      {
        interceptors: [
          createApprovalInterceptor({
            policy: "writes",
            approve: (call: ToolCallInfo) => {
              asked.push(call.toolName);
              return approve;
            },
          }),
        ],
      },
    );
    expect((await servers.connect()).ok).toBe(true);
    codeMode = await createCodeMode(servers);
  }, SERVER_TEST_MS);

  afterAll(async () => {
    codeMode.close();
    await servers.close();
    await temp.remove();
    await expectNoLeakedProcesses();
  }, SERVER_TEST_MS);

  it(
    "asks once per writing call the program makes, never for its reads",
    async () => {
      asked.length = 0;
      approve = true;
      const result = await codeMode.run(`
        await memory.create_entities({ entities: [{ name: "Ada", entityType: "person", observations: ["programmer"] }] });
        await memory.add_observations({ observations: [{ entityName: "Ada", contents: ["born 1815"] }] });
        const found = await memory.search_nodes({ query: "Ada" });
        return JSON.stringify(found).includes("born 1815");
      `);
      expect(result).toMatchObject({ ok: true, value: true, toolCalls: 3 });
      expect(asked).toEqual(["create_entities", "add_observations"]);
    },
    SERVER_TEST_MS,
  );

  it(
    "stops a program at a refused write exactly as a direct call is refused, and nothing is written",
    async () => {
      asked.length = 0;
      approve = false;
      const program = await codeMode.run('await memory.delete_entities({ entityNames: ["Ada"] }); return "deleted";');
      expect(program.error).toMatchObject({
        code: "tool_call_failed",
        errorKind: "refused",
        tool: "memory.delete_entities",
      });
      const direct = await servers.getAdapter("memory")?.invoke("delete_entities", { entityNames: ["Ada"] });
      expect(direct).toMatchObject({ success: false, errorKind: "refused" });
      expect(asked).toEqual(["delete_entities", "delete_entities"]);
      const still = await codeMode.run(
        'return JSON.stringify(await memory.open_nodes({ names: ["Ada"] })).includes("Ada");',
      );
      expect(still).toMatchObject({ ok: true, value: true });
    },
    SERVER_TEST_MS,
  );

  it(
    "the run-code tool in LangChain shows the refusal to the model as a failed tool call",
    async () => {
      approve = false;
      const [tool] = createLangChainTools(codeMode.registry);
      expect(tool?.description).toContain("delete_entities(args: {");
      const answer: unknown = await tool?.invoke({ code: 'await memory.delete_entities({ entityNames: ["Ada"] });' });
      expect(String(answer)).toContain("tool_call_failed");
      expect(String(answer)).toContain("(refused)");
    },
    SERVER_TEST_MS,
  );
});
