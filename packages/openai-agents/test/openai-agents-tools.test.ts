import { readFile } from "node:fs/promises";
import { Agent, run, setTracingDisabled } from "@openai/agents";
import { assistantMessage, functionCall, ScriptedModel } from "@openai/agents-core/testing";
import {
  registerEverythingServer,
  registerMemoryServer,
  type RegisteredMemoryServer,
  type RegisteredServer,
} from "@mcp-tool-adapter/test-helpers";
import { ToolRegistry } from "@mcp-tool-adapter/registry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOpenAIAgentsTools, OpenAIAgentsBridgeError } from "../src/index.js";

const nodeMajor = Number(process.versions.node.split(".")[0]);
// Tracing would try to export to OpenAI's servers; the tests stay on loopback.
setTracingDisabled(true);

interface ResultItem {
  type: string;
  callId?: string;
  name?: string;
  output?: unknown;
}

/** The function_call_result items the model was given in its second request. */
function toolResultsInSecondRequest(model: ScriptedModel): ResultItem[] {
  const input = model.calls[1]?.request.input;
  return Array.isArray(input) ? (input as ResultItem[]).filter((item) => item.type === "function_call_result") : [];
}

function outputText(item: ResultItem | undefined): string {
  const output = item?.output as string | { type: string; text?: string } | undefined;
  return typeof output === "string" ? output : (output?.text ?? "");
}

describe.skipIf(nodeMajor < 22)("OpenAI Agents bridge against a real server-everything over stdio", () => {
  const registry = new ToolRegistry();
  let server: RegisteredServer;

  beforeAll(async () => {
    server = await registerEverythingServer(registry);
  });

  afterAll(async () => {
    await server.close();
  });

  it("runs one agent step with a custom Model: the call reaches the server and the result is in the next request", async () => {
    const model = new ScriptedModel([
      [functionCall("everything__echo", { message: "hello bridge" }, { callId: "call-1" })],
      [assistantMessage("done")],
    ]);
    const agent = new Agent({ name: "echoer", model, tools: createOpenAIAgentsTools(registry) });
    const result = await run(agent, "echo it");

    expect(result.finalOutput).toBe("done");
    const tools = model.calls[0]?.request.tools ?? [];
    expect(tools.map((entry) => (entry as { name?: string }).name)).toContain("everything__echo");
    const [item] = toolResultsInSecondRequest(model);
    expect(item).toMatchObject({ callId: "call-1", name: "everything__echo" });
    expect(outputText(item)).toBe("Echo: hello bridge");
  });

  it("sends strict schemas where they convert and maps strict nulls back before validation", async () => {
    const tools = createOpenAIAgentsTools(registry);
    const annotated = tools.find((entry) => entry.name === "everything__get_annotated_message");
    expect(annotated?.strict).toBe(true);
    expect(annotated?.parameters).toMatchObject({
      additionalProperties: false,
      required: expect.arrayContaining(["messageType", "includeImage"]) as unknown,
    });

    // includeImage is optional: strict mode makes the model send null, which must arrive as "absent".
    const model = new ScriptedModel([
      [
        functionCall(
          "everything__get_annotated_message",
          { messageType: "success", includeImage: null },
          { callId: "call-n" },
        ),
      ],
      [assistantMessage("ok")],
    ]);
    await run(new Agent({ name: "nulls", model, tools }), "run it");
    const text = outputText(toolResultsInSecondRequest(model)[0]);
    expect(text).not.toMatch(/validation|failed|error/i);
    expect(text.length).toBeGreaterThan(0);
  });

  it("gives a model that sent wrong arguments the validation message as the tool output, and the run goes on", async () => {
    const model = new ScriptedModel([
      [functionCall("everything__get_sum", { a: "two", b: null }, { callId: "call-2" })],
      [assistantMessage("I will fix that")],
    ]);
    const result = await run(
      new Agent({ name: "adder", model, tools: createOpenAIAgentsTools(registry, { strict: false }) }),
      "add",
    );

    expect(result.finalOutput).toBe("I will fix that");
    const text = outputText(toolResultsInSecondRequest(model)[0]);
    expect(text).toMatch(/validation/);
    expect(text).toMatch(/\/a must be number/);
  });

  it("truncates a too-large result for the model with a visible marker", async () => {
    const model = new ScriptedModel([
      [functionCall("everything__echo", { message: "x".repeat(5_000) }, { callId: "call-3" })],
      [assistantMessage("ok")],
    ]);
    await run(
      new Agent({ name: "big", model, tools: createOpenAIAgentsTools(registry, { result: { maxChars: 200 } }) }),
      "big",
    );

    const text = outputText(toolResultsInSecondRequest(model)[0]);
    expect(text.length).toBeLessThan(400);
    expect(text).toMatch(/truncated/i);
  });

  it('keeps tools apart that differ only by "-" and "_", and refuses them under charset "standard"', async () => {
    const local = new ToolRegistry();
    const definition = {
      description: "d",
      inputSchema: { type: "object" },
      capabilities: { readOnly: true, writes: false },
      source: "local",
      sourceMetadata: {},
      checkpointable: true,
    };
    local.register("ns", { ...definition, name: "get-sum", handler: () => ({ success: true, data: "dash" }) });
    local.register("ns", { ...definition, name: "get_sum", handler: () => ({ success: true, data: "underscore" }) });
    const tools = createOpenAIAgentsTools(local, { approval: "never" });
    const names = tools.map((agentsTool) => agentsTool.name);
    expect(new Set(names).size).toBe(2);
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_]{1,64}$/);
    // The model calls each by the name it was given, and reaches the right tool.
    const model = new ScriptedModel([
      names.map((name, index) => functionCall(name, {}, { callId: `call-${index}` })),
      [assistantMessage("done")],
    ]);
    await run(new Agent({ name: "sums", model, tools }), "call both");
    const outputs = toolResultsInSecondRequest(model).map((item) => outputText(item));
    expect(outputs.sort()).toEqual(["dash", "underscore"]);

    let caught: unknown;
    try {
      createOpenAIAgentsTools(local, { names: { charset: "standard" } });
    } catch (error) {
      caught = error;
    }
    expect(OpenAIAgentsBridgeError.isInstance(caught)).toBe(true);
    expect(caught).toMatchObject({ code: "NAME_COLLISION", message: expect.stringContaining("ns/get-sum") as unknown });
  });
});

describe.skipIf(nodeMajor < 22)("OpenAI Agents bridge approval against a real server-memory", () => {
  const registry = new ToolRegistry();
  let server: RegisteredMemoryServer;
  let memoryFile: string;

  beforeAll(async () => {
    server = await registerMemoryServer("openai-agents-bridge-", registry);
    memoryFile = server.memoryFile;
  });

  afterAll(async () => {
    await server.close();
  });

  const createAda = { entities: [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }] };

  it("interrupts the run for approval before a write tool runs, and runs it once approved", async () => {
    const model = new ScriptedModel([
      [functionCall("memory__create_entities", createAda, { callId: "call-4" })],
      [assistantMessage("remembered")],
    ]);
    const agent = new Agent({ name: "memory", model, tools: createOpenAIAgentsTools(registry) });
    const first = await run(agent, "remember Ada");

    expect(first.interruptions).toHaveLength(1);
    expect(first.interruptions[0]?.name).toBe("memory__create_entities");
    expect(await readFile(memoryFile, "utf8").catch(() => "")).not.toContain("Ada");

    first.state.approve(first.interruptions[0]!);
    const resumed = await run(agent, first.state);
    expect(resumed.finalOutput).toBe("remembered");
    expect(await readFile(memoryFile, "utf8")).toContain("Ada");
  });
});
