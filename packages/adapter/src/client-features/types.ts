import type { MCPClientRequestContext, MCPSamplingHandler } from "@mcp-tool-adapter/core";
import type { ElicitResult } from "@modelcontextprotocol/sdk/types.js";

/**
 * What a host handler gets besides the request: which server asks, a signal that fires on timeout
 * or when the server cancels, and the tool call it belongs to when the wire says so (`relatedCall`).
 */
export type ClientRequestContext = MCPClientRequestContext;
export type { MCPRelatedCall } from "@mcp-tool-adapter/core";

/** A server asks the user for structured input (`requestedSchema`: a flat object of primitive fields). */
export interface MCPFormElicitation {
  readonly mode: "form";
  readonly message: string;
  readonly requestedSchema: Readonly<Record<string, unknown>>;
}

/** A server asks the user to visit a URL (e.g. to sign in) out of band. */
export interface MCPUrlElicitation {
  readonly mode: "url";
  readonly message: string;
  readonly url: string;
  readonly elicitationId: string;
}

export type MCPElicitationRequest = MCPFormElicitation | MCPUrlElicitation;
/** The user's answer: `accept` (with `content` matching requestedSchema in form mode), `decline` or `cancel`. */
export type MCPElicitationResponse = ElicitResult;
export type ElicitationHandler = (
  request: MCPElicitationRequest,
  context: ClientRequestContext,
) => MCPElicitationResponse | Promise<MCPElicitationResponse>;

/**
 * The sampling contract is core's (`MCPSamplingRequest`: messages, model preferences, system
 * prompt, and `tools` / `toolChoice` when the server sends them; `MCPSamplingResponse`: text, or
 * `tool_use` blocks with `stopReason: "toolUse"`), shared with the bridges' ready handlers.
 */
export type { MCPSamplingRequest, MCPSamplingResponse } from "@mcp-tool-adapter/core";
/** Answers `sampling/createMessage` with the host's model (`onSampling`). */
export type SamplingHandler = MCPSamplingHandler;

/** A folder the server may work in: a `file://` URI and an optional display name. */
export interface MCPRoot {
  readonly uri: string;
  readonly name?: string;
}

/** What a roots handler gets: which server asks, a signal, and the roots the adapter holds (its `roots` option, or setRoots()). */
export interface RootsListContext extends ClientRequestContext {
  readonly roots: readonly MCPRoot[];
}

/**
 * Answers one `roots/list` of the server, when the answer depends on the moment (a gateway asks
 * the client whose call is running). Only with the roots capability declared (the `roots` option);
 * without a handler the adapter answers its roots. The answer is checked like the `roots` option.
 */
export type RootsListHandler = (context: RootsListContext) => readonly MCPRoot[] | Promise<readonly MCPRoot[]>;
