import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expectNoLeakedProcesses, memoryStdioServer } from "@mcp-tool-adapter/test-servers";
import { runCliCaptured, type CapturedRun } from "./fixtures/run-cli-captured.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { readToolLock, type CliIO, type ToolLock } from "../src/index.js";

let dir: string;
let configPath: string;
let lockPath: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "mcp-cli-policy-"));
  configPath = join(dir, "mcp.json");
  lockPath = join(dir, "mcp-tools.lock.json");
  const memory = memoryStdioServer(join(dir, "memory.jsonl"));
  await writeFile(configPath, JSON.stringify({ mcpServers: { memory: { ...memory } } }));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

afterEach(async () => {
  await expectNoLeakedProcesses();
});

function cli(argv: string[], io: Partial<CliIO> = {}): Promise<CapturedRun> {
  return runCliCaptured([...argv, "--config", configPath], { cwd: dir, stdinIsTTY: false, ...io });
}

const ENTITY = JSON.stringify({ entities: [{ name: "Ada", entityType: "person", observations: ["wrote notes"] }] });

describe("CLI approvals and tool pinning against server-memory", () => {
  it("call refuses a writing tool without a terminal and names --yes; read-only tools need no approval", async () => {
    const refused = await cli(["call", "memory/create_entities", "--args", ENTITY]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("memory/create_entities failed (refused)");
    expect(refused.stderr).toContain(
      "stdin is not a terminal to ask for approval; pass --yes to call it without asking",
    );
    const graph = await cli(["call", "memory/read_graph", "--json"]);
    expect(graph.code).toBe(0);
    expect(JSON.parse(graph.stdout)).toMatchObject({ success: true, structuredContent: { entities: [] } });
  });

  it("call asks y/N on a terminal: no refuses, yes calls; --yes skips the question", async () => {
    const questions: string[] = [];
    const declined = await cli(["call", "memory/create_entities", "--args", ENTITY], {
      stdinIsTTY: true,
      confirm: (question) => {
        questions.push(question);
        return Promise.resolve(false);
      },
    });
    expect(declined.code).toBe(1);
    expect(declined.stderr).toContain("refused: the call to memory/create_entities was not approved");
    expect(questions[0]).toContain("memory/create_entities may write");

    const approved = await cli(["call", "memory/create_entities", "--args", ENTITY], {
      stdinIsTTY: true,
      confirm: () => Promise.resolve(true),
    });
    expect(approved.code).toBe(0);
    const unasked = await cli(["call", "memory/delete_entities", "--yes", "--args", '{"entityNames":["Ada"]}'], {
      confirm: () => Promise.reject(new Error("must not ask")),
    });
    expect(unasked.code).toBe(0);
  });

  it("pin writes mcp-tools.lock.json; drifted and escalated tools are then withheld with what changed", async () => {
    const pinned = await cli(["pin"]);
    expect(pinned.code).toBe(0);
    expect(pinned.stderr).toMatch(/memory: \d+ tools pinned/u);
    const lock = (await readToolLock(lockPath)) as ToolLock;
    const tools = lock.servers.memory?.tools ?? {};
    expect(Object.keys(tools)).toContain("read_graph");
    expect(tools.read_graph?.capabilities.readOnly).toBe(true);

    // The lock is what was approved: make it say read_graph had another description and
    // create_entities was read-only, as if the server had changed both since.
    type EditablePin = { fingerprint: string; parts: Record<string, string>; capabilities: Record<string, unknown> };
    const tampered = structuredClone(lock) as unknown as {
      servers: { memory: { tools: Record<string, EditablePin> } };
    };
    const { read_graph: readGraph, create_entities: createEntities } = tampered.servers.memory.tools;
    if (readGraph === undefined || createEntities === undefined) throw new Error("server-memory lost a tool");
    readGraph.fingerprint = "sha256:0";
    readGraph.parts.description = "sha256:0";
    createEntities.fingerprint = "sha256:0";
    createEntities.capabilities = { ...createEntities.capabilities, readOnly: true, writes: false };
    await writeFile(lockPath, JSON.stringify(tampered));

    const listed = await cli(["tools", "--json"]);
    const names = (JSON.parse(listed.stdout) as { tools: { name: string }[] }).tools.map((tool) => tool.name);
    expect(names).not.toContain("memory/read_graph");
    expect(names).not.toContain("memory/create_entities");
    expect(names).toContain("memory/search_nodes");
    expect(listed.stderr).toContain(
      'Tool "read_graph" of MCP server "memory" changed since it was pinned (description); withheld',
    );
    expect(listed.stderr).toContain("readOnly: true -> false");
    expect(listed.stderr).toContain("it was read-only and may now write, so it is withheld whatever the policy");

    const call = await cli(["call", "memory/read_graph"]);
    expect(call.code).toBe(1);

    const repinned = await cli(["pin"]);
    expect(repinned.stderr).toContain("~ read_graph: description");
    expect(JSON.parse(await readFile(lockPath, "utf8"))).toEqual(lock);
    const back = await cli(["call", "memory/read_graph"]);
    expect(back.code).toBe(0);
  });

  it("a malformed lock file is a clear usage error naming the file", async () => {
    await writeFile(lockPath, "{ not json");
    const result = await cli(["tools"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`The tool lock file ${lockPath} is not valid JSON`);
    await rm(lockPath);
  });
});
