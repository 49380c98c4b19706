import { readFile } from "node:fs/promises";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MemorySaver } from "@langchain/langgraph";
import {
  registerEverythingServer,
  registerInMemoryServer,
  registerMemoryServer,
  type RegisteredMemoryServer,
  type RegisteredServer,
} from "@mcp-tool-adapter/test-helpers";
import { createAgent, humanInTheLoopMiddleware } from "langchain";
import { ToolRegistry, type RegistryChange, type ToolCallResult } from "@mcp-tool-adapter/registry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approvalInterruptOn, createLangChainTools, LangChainToolCallError } from "../src/index.js";

/** The ToolMessages the model was shown in its second call. */
function toolMessagesInSecondCall(model: ReturnType<typeof fakeModel>): ToolMessage[] {
  const messages: BaseMessage[] = model.calls[1]?.messages ?? [];
  return messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
}

describe("LangChain bridge against a real server-everything over stdio", () => {
  const registry = new ToolRegistry();
  let server: RegisteredServer;

  beforeAll(async () => {
    server = await registerEverythingServer(registry);
  });

  afterAll(async () => {
    await server.close();
  });

  it("runs one createAgent step: the tool call reaches the server and the ToolMessage is in the next prompt", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "everything__echo", args: { message: "hello bridge" }, id: "call-1" }])
      .respond(new AIMessage("done"));
    const agent = createAgent({ model, tools: createLangChainTools(registry) });
    const result = await agent.invoke({ messages: [new HumanMessage("echo it")] });

    expect(result.messages.at(-1)?.content).toBe("done");
    const [message] = toolMessagesInSecondCall(model);
    expect(message).toMatchObject({
      tool_call_id: "call-1",
      name: "everything__echo",
      status: "success",
      content: "Echo: hello bridge",
    });
    expect(message?.artifact).toMatchObject({
      success: true,
      data: { content: [{ type: "text", text: "Echo: hello bridge" }] },
    });
  });

  it("gives a model that sent wrong arguments our validation message as an error ToolMessage, and the run goes on", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "everything__get-sum", args: { a: "two" }, id: "call-2" }])
      .respond(new AIMessage("I will fix that"));
    const agent = createAgent({ model, tools: createLangChainTools(registry) });
    const result = await agent.invoke({ messages: [new HumanMessage("add")] });

    expect(result.messages.at(-1)?.content).toBe("I will fix that");
    const [message] = toolMessagesInSecondCall(model);
    expect(message?.status).toBe("error");
    expect(message?.content).toMatch(/validation/);
    expect(message?.content).toMatch(/\/a must be number/);
    expect(message?.content).toMatch(/required property 'b'/);
    expect((message?.artifact as ToolCallResult).errorKind).toBe("validation");
  });

  it("marks a failed call's ToolMessage as an error, or throws a classified error with errors: 'throw'", async () => {
    const call = { type: "tool_call" as const, id: "call-3", name: "everything__get-sum", args: { a: 1 } };
    const [asMessage] = createLangChainTools(registry, { filter: (tool) => tool.name === "everything/get-sum" });
    expect(await asMessage!.invoke(call)).toMatchObject({ status: "error", tool_call_id: "call-3" });

    const [throwing] = createLangChainTools(registry, {
      errors: "throw",
      filter: (tool) => tool.name === "everything/get-sum",
    });
    const error: unknown = await throwing!.invoke(call).catch((caught: unknown) => caught);
    expect(LangChainToolCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: "TOOL_CALL_FAILED", errorKind: "validation" });
  });

  it("hands images to the model as standard image content blocks, with the MCP result as artifact", async () => {
    const [imageTool] = createLangChainTools(registry, { filter: (tool) => tool.name === "everything/get-tiny-image" });
    const message = (await imageTool!.invoke({
      type: "tool_call",
      id: "call-4",
      name: imageTool!.name,
      args: {},
    })) as ToolMessage;

    expect(message.content).toContainEqual(expect.objectContaining({ type: "image", mimeType: "image/png" }));
    expect(message.content).toContainEqual(expect.objectContaining({ type: "text" }));
  });

  it("truncates a too-large result for the model with a visible marker", async () => {
    const [echo] = createLangChainTools(registry, {
      result: { maxChars: 200 },
      filter: (tool) => tool.name === "everything/echo",
    });
    const message = (await echo!.invoke({
      type: "tool_call",
      id: "call-5",
      name: echo!.name,
      args: { message: "x".repeat(5_000) },
    })) as ToolMessage;

    expect(typeof message.content).toBe("string");
    expect((message.content as string).length).toBeLessThan(400);
    expect(message.content).toMatch(/truncated/i);
  });

  it("passes LangChain's abort signal through to the MCP call", async () => {
    const [longRunning] = createLangChainTools(registry, {
      filter: (tool) => tool.name === "everything/trigger-long-running-operation",
    });
    const controller = new AbortController();
    const pending = longRunning!.invoke(
      { type: "tool_call", id: "call-6", name: longRunning!.name, args: { duration: 30, steps: 3 } },
      { signal: controller.signal },
    );
    controller.abort();
    const message = (await pending) as ToolMessage;
    expect(message.status).toBe("error");
    expect(message.artifact).toMatchObject({ success: false, errorKind: "cancelled" });
  });
});

describe("LangChain bridge approval against a real server-memory", () => {
  const registry = new ToolRegistry();
  let server: RegisteredMemoryServer;
  let memoryFile: string;

  beforeAll(async () => {
    server = await registerMemoryServer("langchain-bridge-", registry);
    memoryFile = server.memoryFile;
  });

  afterAll(async () => {
    await server.close();
  });

  it("decides interruptOn from capabilities: write tools wait for a human, read tools do not", async () => {
    const interruptOn = await approvalInterruptOn(createLangChainTools(registry));
    expect(interruptOn).toMatchObject({ memory__create_entities: true, memory__read_graph: false });
  });

  it("stops a createAgent run at a write tool under the default policy, before the server is called", async () => {
    const tools = createLangChainTools(registry);
    const model = fakeModel().respondWithTools([
      {
        name: "memory__create_entities",
        args: { entities: [{ name: "Ada", entityType: "person", observations: ["first program"] }] },
        id: "call-7",
      },
    ]);
    const agent = createAgent({
      model,
      tools,
      middleware: [humanInTheLoopMiddleware({ interruptOn: await approvalInterruptOn(tools) })],
      checkpointer: new MemorySaver(),
    });
    const result = await agent.invoke(
      { messages: [new HumanMessage("remember Ada")] },
      { configurable: { thread_id: "approval" } },
    );

    expect(result.__interrupt__).toHaveLength(1);
    expect(JSON.stringify(result.__interrupt__)).toContain("memory__create_entities");
    await expect(readFile(memoryFile, "utf8").catch(() => "")).resolves.not.toContain("Ada");
  });
});

/** The registry's next change event. */
function nextChange(registry: ToolRegistry): Promise<RegistryChange> {
  return new Promise((resolve) => {
    const stop = registry.subscribe((change) => {
      stop();
      resolve(change);
    });
  });
}

describe("LangChain bridge with a server whose tool list changes", () => {
  it("a long-lived agent rebuilt from registry.subscribe (the documented live view) sees added and removed tools", async () => {
    const live = await registerInMemoryServer("live", {
      tools: [{ name: "old_tool", description: "The first tool", inputSchema: { type: "object", properties: {} } }],
    });
    try {
      const agentTurn = async (name: string, id: string): Promise<ToolMessage | undefined> => {
        const model = fakeModel()
          .respondWithTools([{ name, args: {}, id }])
          .respond(new AIMessage("done"));
        await createAgent({ model, tools }).invoke({ messages: [new HumanMessage("use the tool")] });
        return toolMessagesInSecondCall(model)[0];
      };
      // The live view of docs/agent-runtimes.md: keep the tools, rebuild them on every change.
      let tools = createLangChainTools(live.registry);
      const stopWatching = live.registry.subscribe(() => {
        tools = createLangChainTools(live.registry);
      });
      expect(tools.map((tool) => tool.name)).toEqual(["live__old_tool"]);

      const added = nextChange(live.registry);
      await live.server.addTool({
        name: "new_tool",
        description: "Added while the agent runs",
        inputSchema: { type: "object", properties: {} },
        handler: () => ({ content: [{ type: "text", text: "answer from the new tool" }] }),
      });
      expect((await added).added).toEqual(["live/new_tool"]);
      expect(tools.map((tool) => tool.name).sort()).toEqual(["live__new_tool", "live__old_tool"]);
      expect(await agentTurn("live__new_tool", "call-new")).toMatchObject({
        status: "success",
        content: "answer from the new tool",
      });

      const removed = nextChange(live.registry);
      await live.server.removeTool("old_tool");
      expect((await removed).removed).toEqual(["live/old_tool"]);
      expect(tools.map((tool) => tool.name)).toEqual(["live__new_tool"]);
      stopWatching();
    } finally {
      await live.close();
    }
  });
});
