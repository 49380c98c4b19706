import { AppBridge, buildAllowAttribute, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";
import { encodeCspParam, SANDBOX_CSP_PARAM } from "./app-csp.js";
import { AppsError } from "./apps-error.js";
import { browserGlobals, type AppContainer, type FrameElement, type FrameWindow } from "./browser-globals.js";
import {
  hostCapabilities,
  relayAppRequests,
  type AppDisplayMode,
  type AppHost,
  type AppHostContext,
} from "./app-host.js";
import type { AppsCallResult, AppsUiResource } from "./channel.js";

export interface AppFrameOptions {
  /** The element the app's iframe goes into. */
  readonly container: AppContainer;
  /** The sandbox proxy page (see `createSandboxProxyHandler`), on an origin other than the host page's. */
  readonly sandboxUrl: string;
  /** The tool's UI (from `AppsClient.readUi`). */
  readonly resource: AppsUiResource;
  readonly host: AppHost;
  /** How the host names itself to the app. */
  readonly hostInfo?: { readonly name: string; readonly version: string };
  /**
   * What the app learns of the host at start: theme, styles, locale, display modes, ... (default
   * `{ displayMode: "inline", availableDisplayModes: ["inline"] }`). Change it with `setHostContext`.
   */
  readonly hostContext?: AppHostContext;
  /** How long the sandbox and the app get to start (default 30 s). */
  readonly startTimeoutMs?: number;
}

/** A running app. */
export interface AppFrame {
  readonly iframe: FrameElement;
  /** Sends the tool's arguments (after `ready`). */
  sendToolInput(args: Record<string, unknown>): Promise<void>;
  /** Sends the tool's result (after `ready`). */
  sendToolResult(result: AppsCallResult): Promise<void>;
  /** The host context the app has now. */
  readonly hostContext: AppHostContext;
  /** Changes part of the host context (e.g. `{ theme: "dark" }`); the app is told what changed. */
  setHostContext(changes: AppHostContext): Promise<void>;
  /** The tools the app itself offers (a model may call them through the host); none when it offers none. */
  listAppTools(): Promise<readonly AppToolInfo[]>;
  /** Calls one of the app's own tools; the app answers (a failure is a result with `isError`). */
  callAppTool(name: string, args?: Record<string, unknown>): Promise<AppsCallResult>;
  /** Asks the app to tear down, then closes the channel and removes the iframe. Safe to call twice. */
  close(): Promise<void>;
}

/** A tool the app offers the host (MCP's tool shape). */
export interface AppToolInfo {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema: Record<string, unknown>;
}

/** The extension's transport, typed for our frame windows (its own types name the DOM's Window). */
const FrameTransport = PostMessageTransport as unknown as new (
  target: FrameWindow,
  source: FrameWindow,
) => PostMessageTransport;
const DEFAULT_START_TIMEOUT_MS = 30_000;
/** How long an app gets to answer a teardown before its frame is removed anyway. */
const TEARDOWN_TIMEOUT_MS = 2_000;
/** The iframe runs scripts and forms; no popups, no top navigation, no downloads. */
const FRAME_SANDBOX = "allow-scripts allow-same-origin allow-forms";
const DEFAULT_HOST_INFO = { name: "mcp-tool-adapter", version: "0.1.0" };
const DEFAULT_HOST_CONTEXT: AppHostContext = { displayMode: "inline", availableDisplayModes: ["inline"] };

/**
 * Renders a tool's UI: an iframe on the sandbox origin (the extension's double-iframe proxy, the
 * app's declared CSP enforced on it), connected through the extension's own AppBridge. Resolves
 * once the app has initialized; rejects with AppsError APP_FAILED (and leaves nothing behind)
 * when it does not within `startTimeoutMs`.
 */
export async function createAppFrame(options: AppFrameOptions): Promise<AppFrame> {
  const frame = new BridgedAppFrame(options);
  try {
    await frame.start(options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS);
  } catch (error) {
    await frame.close();
    throw error;
  }
  return frame;
}

class BridgedAppFrame implements AppFrame {
  readonly iframe: FrameElement;
  readonly #bridge: AppBridge;
  readonly #options: AppFrameOptions;
  #hostContext: AppHostContext;
  #closed: Promise<void> | undefined;

  constructor(options: AppFrameOptions) {
    this.#options = options;
    const { resource, host } = options;
    this.iframe = browserGlobals().document.createElement("iframe");
    this.iframe.setAttribute("sandbox", FRAME_SANDBOX);
    const allow = buildAllowAttribute(resource.permissions);
    if (allow !== "") this.iframe.setAttribute("allow", allow);
    this.iframe.title = `App of ${resource.tool}`;
    this.iframe.style.cssText = "width:100%;height:100%;border:0;display:block";
    this.#hostContext = { ...DEFAULT_HOST_CONTEXT, ...options.hostContext };
    const bridge = new AppBridge(null, options.hostInfo ?? DEFAULT_HOST_INFO, hostCapabilities(host), {
      hostContext: this.#hostContext,
    });
    relayAppRequests(bridge, host, {
      current: () => this.hostContext.displayMode ?? "inline",
      changed: (mode: AppDisplayMode) => this.setHostContext({ displayMode: mode }),
    });
    bridge.addEventListener("sandboxready", () => {
      void bridge.sendSandboxResourceReady({
        html: resource.html,
        ...(resource.csp === undefined ? {} : { csp: { ...resource.csp } as never }),
        ...(resource.permissions === undefined ? {} : { permissions: resource.permissions }),
      });
    });
    this.#bridge = bridge;
  }

  async start(timeoutMs: number): Promise<void> {
    const { container, sandboxUrl, resource } = this.#options;
    const { location } = browserGlobals();
    const url = new URL(sandboxUrl, location.href);
    if (url.origin === location.origin)
      throw new AppsError("APP_FAILED", `the sandbox (${url.origin}) must be on another origin than the host page`);
    url.searchParams.set(SANDBOX_CSP_PARAM, encodeCspParam(resource.csp));
    const initialized = new Promise<void>((resolve) => {
      this.#bridge.addEventListener("initialized", () => resolve());
    });
    container.appendChild(this.iframe as never);
    const target = this.iframe.contentWindow;
    if (target === null)
      throw new AppsError("APP_FAILED", "the app's iframe has no window (is the container in the document?)");
    // The window of our own iframe: the transport sends to it and takes messages only from it.
    await this.#bridge.connect(new FrameTransport(target, target));
    this.iframe.src = url.href;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new AppsError(
              "APP_FAILED",
              `the app of ${resource.tool} did not start within ${timeoutMs} ms (sandbox at ${url.origin})`,
            ),
          ),
        timeoutMs,
      );
    });
    try {
      await Promise.race([initialized, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  sendToolInput(args: Record<string, unknown>): Promise<void> {
    return this.#bridge.sendToolInput({ arguments: args });
  }

  sendToolResult(result: AppsCallResult): Promise<void> {
    return this.#bridge.sendToolResult(result as Parameters<AppBridge["sendToolResult"]>[0]);
  }

  get hostContext(): AppHostContext {
    return this.#hostContext;
  }

  async setHostContext(changes: AppHostContext): Promise<void> {
    const changed = Object.entries(changes).filter(
      ([key, value]) => JSON.stringify(this.#hostContext[key]) !== JSON.stringify(value),
    );
    if (changed.length === 0) return;
    this.#hostContext = { ...this.#hostContext, ...changes };
    if (this.#closed !== undefined) return;
    // The extension's setHostContext drops its notification's promise; this one is awaited.
    await this.#bridge.sendHostContextChange(Object.fromEntries(changed));
  }

  async listAppTools(): Promise<readonly AppToolInfo[]> {
    if (this.#bridge.getAppCapabilities()?.tools === undefined) return [];
    return (await this.#bridge.listTools({})).tools;
  }

  async callAppTool(name: string, args: Record<string, unknown> = {}): Promise<AppsCallResult> {
    return await this.#bridge.callTool({ name, arguments: args });
  }

  close(): Promise<void> {
    return (this.#closed ??= this.#close());
  }

  async #close(): Promise<void> {
    if (this.iframe.isConnected) {
      await this.#bridge.teardownResource({}, { timeout: TEARDOWN_TIMEOUT_MS }).catch(() => undefined);
    }
    await this.#bridge.close().catch(() => undefined);
    this.iframe.remove();
  }
}
