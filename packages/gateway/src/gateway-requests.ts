import type { MCPToolResult, ServerSetAdapter } from "mcp-tool-adapter";
import type { InvokeOptions, MCPInputRetry } from "@mcp-tool-adapter/adapter";
import {
  ErrorCode,
  McpError,
  type CallToolResult,
  type CompleteRequestParams,
  type CompleteResult,
  type GetPromptResult,
  type ListToolsResult,
  type ReadResourceResult,
} from "@modelcontextprotocol/sdk/types.js";
import { WITHHELD_META_KEY, type Catalog, type CatalogTool } from "./catalog.js";
import type { ClientRouter } from "./client-router.js";

// What a downstream request does against the catalog, whichever era it came in on: the 2025
// sessions and the 2026-07-28 stateless endpoint both answer through these, so the rules (names,
// routing, failures) live once. Errors are SDK 1.x `McpError`s (numeric JSON-RPC code and message),
// which the stateless endpoint turns into its SDK's error.

/** The tools/list answer, with the tools pinning withheld named in `_meta`. */
export function listToolsResult(catalog: Catalog): ListToolsResult {
  const withheld = catalog.withheld();
  return {
    tools: catalog.listTools().map((tool) => tool.wire),
    ...(withheld.length === 0 ? {} : { _meta: { [WITHHELD_META_KEY]: withheld } }),
  };
}

/** The exposed tool a call names and its connected upstream, or the failure to answer with. */
export function findCallTarget(
  catalog: Catalog,
  name: string,
): { tool: CatalogTool; adapter: ServerSetAdapter } | { failure: CallToolResult } {
  const tool = catalog.findTool(name);
  if (tool === undefined)
    throw new McpError(
      ErrorCode.InvalidParams,
      `Unknown tool "${name}": list the tools (tools/list) for the names this gateway serves.`,
    );
  const adapter = catalog.adapter(tool.server);
  if (adapter === undefined)
    return {
      failure: failure(`MCP server "${tool.server}" behind the gateway is not connected; try again when it is back.`),
    };
  return { tool, adapter };
}

export interface ForwardedCall<Client> {
  readonly tool: CatalogTool;
  readonly adapter: ServerSetAdapter;
  readonly args: Record<string, unknown>;
  /** Who an upstream's elicitation or sampling request during this call goes to. */
  readonly client: Client;
  readonly router: ClientRouter<Client>;
  readonly signal: AbortSignal;
  /** Passes the upstream's progress on; absent when the client sent no progress token. */
  readonly onProgress?: ((progress: { progress: number; total?: number; message?: string }) => void) | undefined;
  /** A 2026-07-28 client's call: an upstream's input_required comes back as it is (with this retry's answers and state). */
  readonly inputRetry?: MCPInputRetry | undefined;
}

/**
 * The upstream call, its result as the downstream client's tools/call result: the upstream's own
 * result object as it is (it goes out serialized once), copied only to mark a failure `isError`.
 * Not async, and the router's bookkeeping is settled in the same callbacks: no extra promise turns.
 */
export function forwardCall<Client>(call: ForwardedCall<Client>): Promise<CallToolResult> {
  return runUpstream(call, (result) => callToolResult(call.tool, result));
}

/** The upstream call as the adapter answers it, marked running on its server for the router meanwhile. */
export function invokeUpstream<Client>(call: ForwardedCall<Client>): Promise<MCPToolResult> {
  return runUpstream(call, (result) => result);
}

function runUpstream<Client, T>(call: ForwardedCall<Client>, settle: (result: MCPToolResult) => T): Promise<T> {
  const { tool, adapter } = call;
  // `caller`: an upstream's request that names this call (streamable HTTP) is routed back to its client.
  const options: InvokeOptions = { signal: call.signal, caller: call.client };
  if (call.onProgress !== undefined) options.onProgress = call.onProgress;
  if (call.inputRetry !== undefined) options.inputRequired = call.inputRetry;
  let invoked: Promise<MCPToolResult>;
  try {
    invoked = adapter.invoke(tool.upstreamName, call.args, options);
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
  // Marked running after it went upstream (the request is written before invoke returns): the
  // server's answer, or a request of its own the router must attribute, comes in a later read.
  const { router, client } = call;
  router.beginCall(tool.server, client);
  return invoked.then(
    (result) => {
      router.endCall(tool.server, client);
      return settle(result);
    },
    (error: unknown) => {
      router.endCall(tool.server, client);
      throw error;
    },
  );
}

/** An upstream call's adapter result as a tools/call result. */
export function callToolResult(tool: CatalogTool, result: MCPToolResult): CallToolResult {
  const { data } = result;
  if (data === null)
    return failure(
      `${tool.server}/${tool.upstreamName} failed (${result.errorKind ?? "error"}): ${result.error ?? "no detail"}`,
    );
  // A success has no `isError: true` (the adapter makes such a result a failure); an absent isError means false.
  if (result.success || data.isError === true) return data as CallToolResult;
  return { ...data, isError: true } as CallToolResult;
}

export async function getPrompt(
  catalog: Catalog,
  params: { name: string; arguments?: Record<string, string> | undefined },
  signal: AbortSignal,
): Promise<GetPromptResult> {
  const prompt = await catalog.findPrompt(params.name);
  const adapter = prompt === undefined ? undefined : catalog.adapter(prompt.server);
  if (prompt === undefined || adapter?.getPrompt === undefined)
    throw new McpError(
      ErrorCode.InvalidParams,
      `Unknown prompt "${params.name}": list the prompts (prompts/list) for the names this gateway serves.`,
    );
  return unwrap(
    await adapter.getPrompt(prompt.upstreamName, params.arguments ?? {}, { signal }),
    `prompt "${params.name}"`,
  );
}

/** The upstream that lists `uri` (or a template matching it), with the given resource method; else InvalidParams. */
export async function resourceUpstream<M extends "readResource" | "subscribeResource">(
  catalog: Catalog,
  uri: string,
  method: M,
): Promise<ServerSetAdapter & Required<Pick<ServerSetAdapter, M>>> {
  const owner = await catalog.resourceOwner(uri);
  const adapter = owner === undefined ? undefined : catalog.adapter(owner);
  if (adapter?.[method] === undefined)
    throw new McpError(
      ErrorCode.InvalidParams,
      `Unknown resource "${uri}": no upstream server lists it or a template that matches it.`,
    );
  return adapter as ServerSetAdapter & Required<Pick<ServerSetAdapter, M>>;
}

export async function readResource(catalog: Catalog, uri: string, signal: AbortSignal): Promise<ReadResourceResult> {
  const adapter = await resourceUpstream(catalog, uri, "readResource");
  return unwrap(await adapter.readResource(uri, { signal }), `resource "${uri}"`);
}

export async function complete(
  catalog: Catalog,
  params: Pick<CompleteRequestParams, "ref" | "argument">,
  signal: AbortSignal,
): Promise<CompleteResult> {
  const { ref, argument } = params;
  let server: string | undefined;
  let reference: { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string } | undefined;
  if (ref.type === "ref/prompt") {
    const prompt = await catalog.findPrompt(ref.name);
    server = prompt?.server;
    if (prompt !== undefined) reference = { type: "ref/prompt", name: prompt.upstreamName };
  } else {
    server = await catalog.resourceOwner(ref.uri);
    reference = { type: "ref/resource", uri: ref.uri };
  }
  const adapter = server === undefined ? undefined : catalog.adapter(server);
  if (adapter?.complete === undefined || reference === undefined) return { completion: { values: [] } };
  const completion = unwrap(await adapter.complete(reference, argument, { signal }), "completion");
  return { completion };
}

export function failure(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/** An adapter request's data, or the JSON-RPC error a downstream client expects for its failure. */
export function unwrap<T>(
  result: { success: boolean; data: T | null; error: string | null; errorKind?: string | undefined },
  what: string,
): T {
  if (result.success && result.data !== null) return result.data;
  const code =
    result.errorKind === "not_found" || result.errorKind === "validation"
      ? ErrorCode.InvalidParams
      : ErrorCode.InternalError;
  throw new McpError(code, `${what}: ${result.error ?? "failed"} (${result.errorKind ?? "error"})`);
}
