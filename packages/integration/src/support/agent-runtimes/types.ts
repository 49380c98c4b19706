import type { ToolRegistry } from "mcp-tool-adapter";

/** The runtimes the agent-runtimes feature names. */
export type RuntimeName = "the Vercel AI SDK" | "LangChain.js" | "the OpenAI Agents SDK";

export interface AgentSettings {
  /** "never" runs write tools at once; "writes" is every bridge's default. */
  approval: "never" | "writes";
  maxChars?: number;
}

export interface ScriptedToolCall {
  name: string;
  args: Record<string, unknown>;
}

/** What one scripted agent step showed: the tool result in the model's next prompt, or an approval stop. */
export interface AgentStepOutcome {
  /** The text of the tool result the model was given, when the tool ran. */
  toolResultText?: string;
  /** The model's final answer, when the run reached it. */
  finalAnswer?: string;
  /** Tool names the run stopped at for approval. */
  approvalRequestedFor: string[];
}

/** The model answers this once it has read the tool result. */
export const FINAL_ANSWER = "Done, I used the tool.";

export type AgentStepRunner = (
  registry: ToolRegistry,
  settings: AgentSettings,
  call: ScriptedToolCall,
) => Promise<AgentStepOutcome>;
