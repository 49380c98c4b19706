// The OpenTelemetry semantic conventions for MCP (development status;
// https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/): how a span of one MCP request is
// named, what says which tool, prompt or resource it is about, and the MCP duration metrics'
// names and buckets. The adapter's CLIENT spans and metrics and the gateway's SERVER spans and
// metrics follow them, so they are written down once, here. Spelled out because the
// semantic-conventions package marks them incubating.

/** The request's JSON-RPC method, on every MCP span. */
export const ATTR_MCP_METHOD_NAME = "mcp.method.name";
/** The resource a request is about (`resources/read`, `subscribe`, `unsubscribe`). */
export const ATTR_MCP_RESOURCE_URI = "mcp.resource.uri";
/** `execute_tool` on a tool call's span, so it reads like any GenAI tool execution. */
export const ATTR_GEN_AI_OPERATION_NAME = "gen_ai.operation.name";
/** The tool a `tools/call` calls. */
export const ATTR_GEN_AI_TOOL_NAME = "gen_ai.tool.name";
/** The prompt a `prompts/get` gets. */
export const ATTR_GEN_AI_PROMPT_NAME = "gen_ai.prompt.name";
/** The request's JSON-RPC id, as a string (ids may be numbers or strings on the wire). */
export const ATTR_JSONRPC_REQUEST_ID = "jsonrpc.request.id";
/** The MCP session the request belongs to, where the transport has one (a 2025-era HTTP session). */
export const ATTR_MCP_SESSION_ID = "mcp.session.id";
/** The MCP protocol revision the request is made in (`2025-11-25`, `2026-07-28`...). */
export const ATTR_MCP_PROTOCOL_VERSION = "mcp.protocol.version";
/** `pipe` for stdio, `tcp` for HTTP: the OSI transport the conventions ask for. */
export const ATTR_NETWORK_TRANSPORT = "network.transport";
/** What kind of failure ended a failed request: our classified error kind or code. */
export const ATTR_ERROR_TYPE = "error.type";

/** The JSON-RPC code of a failed request's answer, as a string (the RPC conventions' status code). */
export const ATTR_RPC_RESPONSE_STATUS_CODE = "rpc.response.status_code";
/** `http` for streamable HTTP; absent for stdio. */
export const ATTR_NETWORK_PROTOCOL_NAME = "network.protocol.name";

/** Histogram (seconds): one request, as the client sees it, from sending until the answer. */
export const METRIC_MCP_CLIENT_OPERATION_DURATION = "mcp.client.operation.duration";
/** Histogram (seconds): one request, as the server sees it, from receiving it until its answer is sent. */
export const METRIC_MCP_SERVER_OPERATION_DURATION = "mcp.server.operation.duration";
/** Histogram (seconds): one MCP session, as the client sees it. */
export const METRIC_MCP_CLIENT_SESSION_DURATION = "mcp.client.session.duration";
/** Histogram (seconds): one MCP session, as the server sees it. */
export const METRIC_MCP_SERVER_SESSION_DURATION = "mcp.server.session.duration";
/**
 * `error.type` of an MCP session's duration (either side) whose connection was lost before either
 * side ended the session: the same name as the adapter's error kind for a call cut off that way.
 * The conventions set `error.type` on a session's duration if and only if the session ended with an
 * error; one its client ended (disconnect, HTTP DELETE, stdin's end) has none.
 */
export const SESSION_ERROR_CONNECTION_LOST = "connection_lost";
/** `error.type` of a server's session that the server ended itself (it shut down, or closed the connection). */
export const SESSION_ERROR_SERVER_CLOSED = "server_closed";
/** The explicit bucket boundaries (seconds) the conventions give every one of the four MCP duration histograms. */
export const MCP_DURATION_BUCKETS: readonly number[] = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** The span of one MCP request, as the conventions name and describe it. */
export interface MCPRequestSpanDescription {
  /** `{method} {target}`, the target being the tool or prompt name; the method alone when there is none. */
  readonly name: string;
  /** Low-cardinality attributes, fit for a metric too: the method, and the tool or prompt name. */
  readonly attributes: Record<string, string>;
  /**
   * The resource URI of a request about one resource (`mcp.resource.uri`): a span attribute, and
   * never part of the name or of a metric, where its cardinality has no bound.
   */
  readonly resourceUri?: string;
}

const RESOURCE_METHODS: ReadonlySet<string> = new Set([
  "resources/read",
  "resources/subscribe",
  "resources/unsubscribe",
]);

/** Describes the span of the request `method` with `params` (what the wire carries). */
export function describeMCPRequestSpan(
  method: string,
  params: Readonly<Record<string, unknown>> | undefined,
): MCPRequestSpanDescription {
  const name = params?.["name"];
  if (method === "tools/call" && typeof name === "string")
    return {
      name: `${method} ${name}`,
      attributes: {
        [ATTR_MCP_METHOD_NAME]: method,
        [ATTR_GEN_AI_TOOL_NAME]: name,
        [ATTR_GEN_AI_OPERATION_NAME]: "execute_tool",
      },
    };
  if (method === "prompts/get" && typeof name === "string")
    return {
      name: `${method} ${name}`,
      attributes: { [ATTR_MCP_METHOD_NAME]: method, [ATTR_GEN_AI_PROMPT_NAME]: name },
    };
  const uri = params?.["uri"];
  if (RESOURCE_METHODS.has(method) && typeof uri === "string")
    return { name: method, attributes: { [ATTR_MCP_METHOD_NAME]: method }, resourceUri: uri };
  return { name: method, attributes: { [ATTR_MCP_METHOD_NAME]: method } };
}
