const ERROR_MARKER = Symbol.for("mcp-tool-adapter.error");

export type OpenAIAgentsBridgeErrorCode = "NAME_COLLISION";

/** Thrown while converting, when two tools would reach the Agents SDK under one name. */
export class OpenAIAgentsBridgeError extends Error {
  readonly code: OpenAIAgentsBridgeErrorCode;
  readonly [ERROR_MARKER] = true;

  constructor(code: OpenAIAgentsBridgeErrorCode, message: string) {
    super(message);
    this.name = "OpenAIAgentsBridgeError";
    this.code = code;
  }

  static isInstance(value: unknown): value is OpenAIAgentsBridgeError {
    return typeof value === "object" && value !== null && (value as { [ERROR_MARKER]?: unknown })[ERROR_MARKER] === true && (value as { name?: unknown }).name === "OpenAIAgentsBridgeError";
  }
}
