import type {
  AppBridge,
  McpUiDisplayMode,
  McpUiHostCapabilities,
  McpUiHostContext,
} from "@modelcontextprotocol/ext-apps/app-bridge";
import { AppsError } from "./apps-error.js";
import type { AppsCallResult } from "./channel.js";

/** How an app is shown: inline in the page, fullscreen, or picture-in-picture (the extension's names). */
export type AppDisplayMode = McpUiDisplayMode;

/**
 * What the host tells the app about itself (the extension's `McpUiHostContext`): `theme`
 * ("light" | "dark"), `styles`, `displayMode`, `availableDisplayModes`, `containerDimensions`,
 * `locale`, `timeZone`, `platform`, ... The app reads it at start and on every change.
 */
export type AppHostContext = McpUiHostContext;

/** What the app gives the model to know (`ui/update-model-context`); each update replaces the last. */
export interface AppModelContext {
  /** MCP content blocks (text, image, ...). */
  readonly content?: readonly unknown[];
  readonly structuredContent?: Record<string, unknown>;
}

/** A file the app offers for download: an embedded MCP resource (with its data) or a link to one. */
export type AppDownload =
  | {
      readonly type: "resource";
      readonly resource: {
        readonly uri: string;
        readonly mimeType?: string;
        readonly text?: string;
        readonly blob?: string;
      };
    }
  | { readonly type: "resource_link"; readonly uri: string; readonly name: string; readonly mimeType?: string };

/** What the host decides when the app asks for something. Each may refuse by throwing. */
export interface AppHost {
  /** The app calls a tool (of its own server): call it through the apps channel, after an approval if it writes. */
  callTool(name: string, args: Record<string, unknown>): Promise<AppsCallResult>;
  /** The app sends a message to the model (`ui/message`). Without it such requests are refused. */
  sendMessage?(message: { role: string; content: readonly unknown[] }): Promise<void> | void;
  /** The app asks to open a link. Without it such requests are refused. */
  openLink?(url: string): Promise<void> | void;
  /**
   * The app updates what the model should know of it (`ui/update-model-context`): keep the latest
   * and add it to the model's next turn. Without it such requests are refused.
   */
  updateModelContext?(context: AppModelContext): Promise<void> | void;
  /**
   * The app asks to download files (`ui/download-file`; its sandbox may not). Ask the user first;
   * answer `false` when the download is refused or fails. Without it such requests are refused.
   */
  downloadFile?(contents: readonly AppDownload[]): Promise<boolean | undefined> | boolean | undefined;
  /**
   * The app asks for another display mode (`ui/request-display-mode`): answer the mode the app is
   * now in (the same one to refuse). The frame tells the app through its host context. Without
   * it the app stays as it is.
   */
  requestDisplayMode?(mode: AppDisplayMode): Promise<AppDisplayMode> | AppDisplayMode;
  /** A log line from the app. */
  onLog?(entry: { level: string; data: unknown }): void;
  /** The app's preferred size changed. */
  onSizeChange?(size: { width?: number; height?: number }): void;
}

/** What the host offers the app: exactly the requests it has a callback for. */
export function hostCapabilities(host: AppHost): McpUiHostCapabilities {
  return {
    serverTools: {},
    logging: {},
    ...(host.openLink === undefined ? {} : { openLinks: {} }),
    ...(host.sendMessage === undefined ? {} : { message: {} }),
    ...(host.updateModelContext === undefined ? {} : { updateModelContext: {} }),
    ...(host.downloadFile === undefined ? {} : { downloadFile: {} }),
  };
}

type BridgeCallResult = Awaited<ReturnType<AppBridge["callTool"]>>;

/**
 * Relays the app's requests to the host's callbacks. `displayModeChanged` is called with the mode
 * the host granted, so the frame can tell the app through its host context.
 */
export function relayAppRequests(
  bridge: AppBridge,
  host: AppHost,
  display: { current(): AppDisplayMode; changed(mode: AppDisplayMode): Promise<void> },
): void {
  bridge.oncalltool = async (params) => (await host.callTool(params.name, params.arguments ?? {})) as BridgeCallResult;
  bridge.onmessage = async (params) => {
    if (host.sendMessage === undefined) return { isError: true };
    await host.sendMessage({ role: params.role, content: params.content });
    return {};
  };
  bridge.onopenlink = async (params) => {
    if (host.openLink === undefined) return { isError: true };
    await host.openLink(params.url);
    return {};
  };
  bridge.onupdatemodelcontext = async (params) => {
    if (host.updateModelContext === undefined)
      throw new AppsError("APP_FAILED", "this host takes no model context from apps (no updateModelContext callback)");
    await host.updateModelContext({
      ...(params.content === undefined ? {} : { content: params.content }),
      ...(params.structuredContent === undefined ? {} : { structuredContent: params.structuredContent }),
    });
    return {};
  };
  bridge.ondownloadfile = async (params) => {
    if (host.downloadFile === undefined) return { isError: true };
    const done = await host.downloadFile(params.contents);
    return done === false ? { isError: true } : {};
  };
  bridge.onrequestdisplaymode = async (params) => {
    if (host.requestDisplayMode === undefined) return { mode: display.current() };
    const mode = await host.requestDisplayMode(params.mode);
    if (mode !== display.current()) await display.changed(mode);
    return { mode };
  };
  bridge.addEventListener("loggingmessage", (params) => host.onLog?.({ level: params.level, data: params.data }));
  bridge.addEventListener("sizechange", (params) => host.onSizeChange?.(params));
}
