import type { ElicitRequest } from "@modelcontextprotocol/sdk/types.js";
import { MCPProtocolError } from "@mcp-tool-adapter/core";
import { formatValidationErrors, type SchemaValidator } from "@mcp-tool-adapter/schema-validation";
import { describeCause } from "../errors.js";
import { RpcCode } from "../rpc-error.js";
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
    throw new MCPProtocolError(
      RpcCode.InvalidParams,
      `Elicitation declined: the requestedSchema is not a usable JSON Schema (${describeCause(error)})`,
    );
  }
  return Object.freeze({ mode: "form", message: params.message, requestedSchema: params.requestedSchema });
}

/**
 * Completes the user's accepted form answer with the `requestedSchema`'s defaults for the fields
 * it leaves out (SEP-1034: a field the user did not touch keeps the value the form showed), then
 * checks it against the schema before it is sent; an answer that does not fit is an error for the
 * server, never sent as data.
 */
export function checkElicitationAnswer(
  request: MCPElicitationRequest,
  answer: MCPElicitationResponse,
  validator: SchemaValidator,
): MCPElicitationResponse {
  if (request.mode !== "form" || answer.action !== "accept") return answer;
  const content = withDefaults(request.requestedSchema, answer.content ?? {});
  const result = validator.validate(request.requestedSchema, content);
  if (!result.valid) {
    throw new MCPProtocolError(
      RpcCode.InternalError,
      `The client's answer to the elicitation does not match its requestedSchema: ${formatValidationErrors(result.errors)}`,
    );
  }
  return { ...answer, content };
}

type FormContent = NonNullable<MCPElicitationResponse["content"]>;

/** The answer plus each top-level property's `default` the answer omits (a form schema is flat). */
function withDefaults(requestedSchema: Readonly<Record<string, unknown>>, content: FormContent): FormContent {
  const properties = requestedSchema.properties;
  if (typeof properties !== "object" || properties === null) return content;
  const completed: Record<string, unknown> = { ...content };
  for (const [field, schema] of Object.entries(properties as Record<string, unknown>)) {
    if (completed[field] !== undefined || typeof schema !== "object" || schema === null) continue;
    if (Object.hasOwn(schema, "default")) completed[field] = (schema as { default: unknown }).default;
  }
  return completed as FormContent;
}
