import { MCPToolAdapterError } from "@mcp-tool-adapter/core";

/**
 * What the gateway refuses or cannot do. Each code names one failure a downstream client or an
 * operator can act on; the message says what failed, where, and what to do.
 */
export type GatewayErrorCode =
  | "GATEWAY_OPTIONS_INVALID"
  | "UNKNOWN_TOOL"
  | "UNKNOWN_PROMPT"
  | "UNKNOWN_RESOURCE"
  | "CLIENT_CAPABILITY_MISSING"
  | "CLIENT_REQUEST_UNATTRIBUTED"
  | "APPROVAL_REFUSED"
  | "UNAUTHORIZED"
  | "FORBIDDEN_HOST"
  | "FORBIDDEN_ORIGIN"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "SESSION_UNKNOWN"
  | "BAD_REQUEST"
  | "NOT_ACCEPTABLE"
  | "METHOD_NOT_ALLOWED"
  | "STREAM_CONFLICT"
  | "PROTOCOL_VERSION_UNSUPPORTED"
  | "TOO_MANY_SESSIONS"
  | "INPUT_TIMEOUT"
  | "TOO_MANY_CALLS_AWAITING_INPUT"
  | "INPUT_RESPONSE_INVALID"
  | "REQUEST_STATE_UNKNOWN"
  | "REQUEST_STATE_MISMATCH"
  | "REQUEST_STATE_HOLDER_GONE"
  | "FORWARD_UNAUTHENTICATED"
  | "SDK_INCOMPATIBLE";

export class GatewayError extends MCPToolAdapterError<GatewayErrorCode> {
  static override readonly errorName: string = "GatewayError";
}
