import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MemorySaver } from "@langchain/langgraph";
import { approvalInterruptOn, createLangChainTools } from "@mcp-tool-adapter/langchain";
import { createAgent, humanInTheLoopMiddleware } from "langchain";
import { FINAL_ANSWER, type AgentStepRunner } from "./types.js";

/** One createAgent run with LangChain's fake chat model; approval is humanInTheLoopMiddleware. */
export const runLangChainStep: AgentStepRunner = async (registry, settings, call) => {
  const model = fakeModel()
    .respondWithTools([{ name: call.name, args: call.args, id: "call-1" }])
    .respond(new AIMessage(FINAL_ANSWER));
  const tools = createLangChainTools(
    registry,
    settings.maxChars === undefined ? {} : { result: { maxChars: settings.maxChars } },
  );
  const interruptOn = await approvalInterruptOn(tools, settings.approval);
  const agent = createAgent({
    model,
    tools,
    middleware: [humanInTheLoopMiddleware({ interruptOn })],
    checkpointer: new MemorySaver(),
  });
  const result = await agent.invoke(
    { messages: [new HumanMessage("Use the tool.")] },
    { configurable: { thread_id: "scenario" } },
  );

  const toolMessage = (model.calls[1]?.messages ?? []).find((message) => ToolMessage.isInstance(message));
  const last = result.messages.at(-1);
  const interrupts = JSON.stringify(result.__interrupt__ ?? []);
  return {
    ...(toolMessage === undefined ? {} : { toolResultText: toolMessage.text }),
    // The fake model echoes the prompt as the text of a tool-calling message: only an answer without tool calls is final.
    ...(last !== undefined && AIMessage.isInstance(last) && (last.tool_calls ?? []).length === 0
      ? { finalAnswer: last.text }
      : {}),
    approvalRequestedFor: tools.filter((tool) => interrupts.includes(`"${tool.name}"`)).map((tool) => tool.name),
  };
};
