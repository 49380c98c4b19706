import { Agent, run, setTracingDisabled } from "@openai/agents";
import { assistantMessage, functionCall, ScriptedModel } from "@openai/agents-core/testing";
import { createOpenAIAgentsTools } from "@mcp-tool-adapter/openai-agents";
import { FINAL_ANSWER, type AgentStepRunner } from "./types.js";

// Tracing would try to export to OpenAI's servers; the scenarios stay on loopback.
setTracingDisabled(true);

/** One run() of an Agent whose model is the Agents SDK's scripted test Model. */
export const runOpenAIAgentsStep: AgentStepRunner = async (registry, settings, call) => {
  const model = new ScriptedModel([
    [functionCall(call.name, call.args, { callId: "call-1" })],
    [assistantMessage(FINAL_ANSWER)],
  ]);
  const tools = createOpenAIAgentsTools(registry, {
    approval: settings.approval,
    ...(settings.maxChars === undefined ? {} : { result: { maxChars: settings.maxChars } }),
  });
  const result = await run(new Agent({ name: "scenario", model, tools }), "Use the tool.");

  const input = model.calls[1]?.request.input;
  const resultItem = (Array.isArray(input) ? input : []).find((item) => item.type === "function_call_result") as
    { output?: string | { text?: string } } | undefined;
  const output = resultItem?.output;
  const text = typeof output === "string" ? output : output?.text;
  return {
    ...(text === undefined ? {} : { toolResultText: text }),
    ...(result.interruptions.length === 0 && typeof result.finalOutput === "string"
      ? { finalAnswer: result.finalOutput }
      : {}),
    approvalRequestedFor: result.interruptions.flatMap((item) => (item.name === undefined ? [] : [item.name])),
  };
};
