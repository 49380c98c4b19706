// Attribute and metric names of the OpenTelemetry semantic conventions for MCP and GenAI tool
// execution (development status; https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/).
// The names the gateway uses too are core's; only the client's own are spelled out here.
export {
  ATTR_ERROR_TYPE,
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_MCP_RESOURCE_URI,
  ATTR_MCP_SESSION_ID,
  ATTR_NETWORK_PROTOCOL_NAME,
  ATTR_NETWORK_TRANSPORT,
  MCP_DURATION_BUCKETS,
  METRIC_MCP_CLIENT_OPERATION_DURATION,
  METRIC_MCP_CLIENT_SESSION_DURATION,
} from "@mcp-tool-adapter/core";
export const ATTR_SERVER_ADDRESS = "server.address";
export const ATTR_SERVER_PORT = "server.port";
