// Attribute and metric names of the OpenTelemetry semantic conventions for MCP and GenAI tool
// execution (development status; https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/).
// Spelled out here because the semantic-conventions package marks them incubating and the
// adapter depends on @opentelemetry/api alone.
// The names the gateway's spans use too are core's.
export {
  ATTR_ERROR_TYPE,
  ATTR_MCP_RESOURCE_URI,
  ATTR_MCP_SESSION_ID,
  ATTR_NETWORK_TRANSPORT,
} from "@mcp-tool-adapter/core";
export const ATTR_SERVER_ADDRESS = "server.address";
export const ATTR_SERVER_PORT = "server.port";
export const ATTR_NETWORK_PROTOCOL_NAME = "network.protocol.name";
export const METRIC_MCP_CLIENT_OPERATION_DURATION = "mcp.client.operation.duration";
/** Explicit bucket boundaries (seconds) the conventions recommend for MCP operation durations. */
export const OPERATION_DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];
