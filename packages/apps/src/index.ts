// @mcp-tool-adapter/apps: an MCP Apps host for the browser. A tool's UI runs in a sandboxed
// iframe through the extension's AppBridge; tools are listed, read and called over the user's
// own HTTP channel (its server side is `@mcp-tool-adapter/apps/server`).
export { createAppFrame, type AppFrame, type AppFrameOptions, type AppToolInfo } from "./app-frame.js";
export type { AppDisplayMode, AppDownload, AppHost, AppHostContext, AppModelContext } from "./app-host.js";
export { createAppsClient, type AppsClient, type AppsClientOptions } from "./apps-client.js";
export { AppsError, type AppsErrorCode } from "./apps-error.js";
export { buildAppCsp } from "./app-csp.js";
export {
  APPS_ROUTES,
  type AppsCallRequest,
  type AppsCallResponse,
  type AppsCallResult,
  type AppsErrorBody,
  type AppsToolInfo,
  type AppsToolList,
  type AppsUiResource,
  type AppsUiResponse,
} from "./channel.js";
