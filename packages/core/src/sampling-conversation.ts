import type {
  MCPClientRequestContext,
  MCPSamplingContent,
  MCPSamplingRequest,
  MCPSamplingResponse,
  MCPSamplingStopReason,
  MCPToolResultContent,
} from "./sampling-types.js";

/** A `tool_result` block with the name of the tool its `tool_use` called (frameworks want both). */
export interface MCPPairedToolResult {
  readonly result: MCPToolResultContent;
  readonly toolName: string;
}

/**
 * One turn of a sampling request's conversation, sorted by the spec's tool-use rules. `where`
 * names the message (`messages[2]`) for errors the caller raises while converting the turn.
 */
export type MCPSamplingTurn =
  | { readonly kind: "user"; readonly blocks: readonly MCPSamplingContent[]; readonly where: string }
  | { readonly kind: "assistant"; readonly blocks: readonly MCPSamplingContent[]; readonly where: string }
  | { readonly kind: "tool_results"; readonly results: readonly MCPPairedToolResult[]; readonly where: string };

/**
 * A sampling request's messages as turns, with the spec's tool-use rules checked once for every
 * bridge: a user turn with `tool_result` blocks holds nothing else, and answers every `tool_use`
 * of the assistant turn before it, and no other. A broken rule is thrown as `invalid(problem)`,
 * so each bridge raises its own error class with a message that says where the conversation
 * breaks it.
 */
export function samplingTurns(
  request: Pick<MCPSamplingRequest, "messages">,
  invalid: (problem: string) => Error,
): MCPSamplingTurn[] {
  const turns: MCPSamplingTurn[] = [];
  /** The tool names of the last assistant turn's `tool_use` blocks, by id, until their results come. */
  let openToolUses = new Map<string, string>();
  request.messages.forEach((message, index) => {
    const blocks = Array.isArray(message.content) ? message.content : [message.content];
    const where = `messages[${index}]`;
    const results = blocks.filter((block): block is MCPToolResultContent => block.type === "tool_result");
    if (results.length > 0) {
      if (message.role !== "user" || results.length !== blocks.length) {
        throw invalid(`${where}: tool_result blocks must be the only content of a user message`);
      }
      const paired = results.map((result) => {
        const toolName = openToolUses.get(result.toolUseId);
        if (toolName === undefined) {
          throw invalid(`${where}: tool_result ${result.toolUseId} answers no tool_use of the assistant turn before`);
        }
        openToolUses.delete(result.toolUseId);
        return { result, toolName };
      });
      if (openToolUses.size > 0) {
        throw invalid(
          `${where}: no tool_result for tool_use ${[...openToolUses.keys()].join(", ")} of the turn before`,
        );
      }
      turns.push({ kind: "tool_results", results: paired, where });
      return;
    }
    if (openToolUses.size > 0) {
      throw invalid(
        `${where}: the tool_use ${[...openToolUses.keys()].join(", ")} of the turn before has no tool_result`,
      );
    }
    if (message.role === "assistant") {
      openToolUses = new Map(blocks.flatMap((block) => (block.type === "tool_use" ? [[block.id, block.name]] : [])));
      turns.push({ kind: "assistant", blocks, where });
    } else {
      turns.push({ kind: "user", blocks, where });
    }
  });
  return turns;
}

/**
 * How a ready sampling handler raises a request that breaks the spec's rules (for `samplingTurns`
 * and its own conversion): its own error class, made by `create` from the one code and wording
 * every bridge uses.
 */
export function invalidSamplingRequest<E extends Error>(
  create: (code: "SAMPLING_REQUEST_INVALID", message: string) => E,
): (problem: string) => E {
  return (problem) => create("SAMPLING_REQUEST_INVALID", `Invalid sampling/createMessage request: ${problem}`);
}

/** A tool result as text for a model: its text blocks, else its structured content as JSON. */
export function toolResultText(result: MCPToolResultContent): string {
  const texts = result.content.flatMap((block) =>
    block.type === "text" && typeof block.text === "string" ? [block.text] : [],
  );
  return texts.length === 0 && result.structuredContent !== undefined
    ? JSON.stringify(result.structuredContent)
    : texts.join("\n");
}

/**
 * The model a ready sampling handler answers with: one model, or a function choosing one per
 * request (it sees the server's `modelPreferences`, `systemPrompt`, which server asks...).
 */
export type MCPSamplingModelChoice<Model> =
  Model | ((request: MCPSamplingRequest, context: MCPClientRequestContext) => Model);

/** The model for this request: the choice itself, or what the choosing function returns. */
export function chooseSamplingModel<Model>(
  choice: MCPSamplingModelChoice<Model>,
  request: MCPSamplingRequest,
  context: MCPClientRequestContext,
): Model {
  // A framework's model is an object (or, in the AI SDK, a model id string), never a function.
  return typeof choice === "function"
    ? (choice as (request: MCPSamplingRequest, context: MCPClientRequestContext) => Model)(request, context)
    : choice;
}

/**
 * A model's answer as the result of `sampling/createMessage`: one block as itself (what
 * 2025-06-18 servers read), several as the list SEP-1577 allows. An answer with no block at all
 * is thrown as `empty()`, so each bridge raises its own error class.
 */
export function samplingAnswer(
  answer: { content: readonly MCPSamplingContent[]; model: string; stopReason: MCPSamplingStopReason },
  empty: () => Error,
): MCPSamplingResponse {
  const [first, ...rest] = answer.content;
  if (first === undefined) throw empty();
  return {
    role: "assistant",
    content: rest.length === 0 ? first : [...answer.content],
    model: answer.model,
    stopReason: answer.stopReason,
  };
}
