import { ErrorCode, McpError, type ElicitRequest } from "@modelcontextprotocol/sdk/types.js";
import { formatValidationErrors, type SchemaValidator } from "@mcp-tool-adapter/schema-validation";
import { describeCause } from "../errors.js";
import type { MCPElicitationRequest, MCPElicitationResponse } from "./types.js";

/**
 * The elicitation request as the handler sees it, or an InvalidParams error when the form's
 * `requestedSchema` cannot be compiled (a bad pattern, an unresolvable $ref...): the user is
 * never asked a question the answer to which could not be checked.
 */
export function toElicitationRequest(
  params: ElicitRequest["params"],
  validator: SchemaValidator,
): MCPElicitationRequest {
  if (params.mode === "url") {
    return Object.freeze({
      mode: "url",
      message: params.message,
      url: params.url,
      elicitationId: params.elicitationId,
    });
  }
  try {
    validator.compile(params.requestedSchema);
  } catch (error) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Elicitation declined: the requestedSchema is not a usable JSON Schema (${describeCause(error)})`,
    );
  }
  return Object.freeze({ mode: "form", message: params.message, requestedSchema: params.requestedSchema });
}

/**
 * Checks the user's accepted form answer against the server's `requestedSchema` before it is
 * sent; an answer that does not fit is an error for the server, never sent as data.
 */
export function checkElicitationAnswer(
  request: MCPElicitationRequest,
  answer: MCPElicitationResponse,
  validator: SchemaValidator,
): MCPElicitationResponse {
  if (request.mode !== "form" || answer.action !== "accept") return answer;
  const result = validator.validate(request.requestedSchema, answer.content ?? {});
  if (!result.valid) {
    throw new McpError(
      ErrorCode.InternalError,
      `The client's answer to the elicitation does not match its requestedSchema: ${formatValidationErrors(result.errors)}`,
    );
  }
  return answer;
}
