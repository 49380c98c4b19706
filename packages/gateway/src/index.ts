export { createGateway, DEFAULT_MAX_CLIENT_SESSIONS } from "./create-gateway.js";
export { DEFAULT_MAX_CALLS_AWAITING_INPUT } from "./pending-calls.js";
export {
  type Gateway,
  type GatewayConnection,
  type GatewayOptions,
  type GatewayServerSetOptions,
  type GatewayStreamConnection,
} from "./gateway.js";
export { listenHttp, type GatewayHttpOptions, type GatewayHttpServer } from "./http-listener.js";
export { serveStdio, type StdioGateway } from "./serve-stdio.js";
export type { GatewayApproval } from "./approval.js";
export { WITHHELD_META_KEY, type GatewayToolFilter, type GatewayToolInfo, type WithheldTool } from "./catalog.js";
export { GatewayError, type GatewayErrorCode } from "./errors.js";
export {
  createOAuthResourceServer,
  type OAuthResourceServer,
  type OAuthResourceServerOptions,
} from "./oauth-resource-server.js";
