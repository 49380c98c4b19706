import type { AgentStepRunner, RuntimeName } from "./types.js";

export * from "./types.js";

/**
 * The runner of one runtime, loaded on first use: the AI SDK 7 and the Agents SDK need Node 22,
 * and the Node 20 run leaves their scenarios out (cucumber.mjs), so it never loads them.
 */
export async function agentStepRunner(runtime: RuntimeName): Promise<AgentStepRunner> {
  switch (runtime) {
    case "the Vercel AI SDK":
      return (await import("./ai-sdk.js")).runAISDKStep;
    case "LangChain.js":
      return (await import("./langchain.js")).runLangChainStep;
    case "the OpenAI Agents SDK":
      return (await import("./openai-agents.js")).runOpenAIAgentsStep;
  }
}
