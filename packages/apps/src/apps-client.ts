import { AppsError } from "./apps-error.js";
import {
  APPS_ROUTES,
  type AppsCallRequest,
  type AppsCallResponse,
  type AppsCallResult,
  type AppsToolInfo,
  type AppsToolList,
  type AppsUiResource,
  type AppsUiResponse,
} from "./channel.js";

export interface AppsClientOptions {
  /** Where the server side's handler is mounted, e.g. "/api/apps" or "https://example.com/api/apps". */
  readonly baseUrl: string;
  /** The fetch to use (default the global one): add credentials or headers here. */
  readonly fetch?: typeof fetch;
}

/** The browser end of the apps channel. */
export interface AppsClient {
  listTools(): Promise<readonly AppsToolInfo[]>;
  /** The tool's UI; AppsError UI_UNAVAILABLE when it has none. */
  readUi(toolName: string): Promise<AppsUiResource>;
  /** Calls a tool; `app` names the tool whose app asks. A tool's failure is a result with `isError`. */
  callTool(request: AppsCallRequest): Promise<AppsCallResult>;
}

export function createAppsClient(options: AppsClientOptions): AppsClient {
  return new HttpAppsClient(options);
}

class HttpAppsClient implements AppsClient {
  readonly #base: string;
  readonly #fetch: typeof fetch;

  constructor(options: AppsClientOptions) {
    this.#base = options.baseUrl.replace(/\/+$/, "");
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  async listTools(): Promise<readonly AppsToolInfo[]> {
    return (await this.#request<AppsToolList>(APPS_ROUTES.tools)).tools;
  }

  async readUi(toolName: string): Promise<AppsUiResource> {
    return (await this.#request<AppsUiResponse>(`${APPS_ROUTES.ui}?tool=${encodeURIComponent(toolName)}`)).resource;
  }

  async callTool(request: AppsCallRequest): Promise<AppsCallResult> {
    const init = { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(request) };
    return (await this.#request<AppsCallResponse>(APPS_ROUTES.call, init)).result;
  }

  async #request<T>(path: string, init?: RequestInit): Promise<T> {
    const url = `${this.#base}/${path}`;
    let response: Response;
    try {
      response = await this.#fetch(url, init);
    } catch (error) {
      throw new AppsError("CHANNEL_FAILED", `cannot reach the apps handler at ${url}: ${String(error)}`, {
        cause: error,
      });
    }
    const body = (await response.json().catch(() => undefined)) as
      (T & { error?: { code?: unknown; message?: unknown } }) | undefined;
    if (response.ok && body !== undefined) return body;
    const problem = body?.error;
    const code = typeof problem?.code === "string" && isCode(problem.code) ? problem.code : "CHANNEL_FAILED";
    const message =
      typeof problem?.message === "string" ? problem.message : `HTTP ${response.status} without a JSON body`;
    throw new AppsError(code, `${init?.method ?? "GET"} ${url} failed: ${message}`);
  }
}

const SERVER_CODES = new Set(["BAD_REQUEST", "TOOL_NOT_FOUND", "UI_UNAVAILABLE", "CALL_REFUSED", "CHANNEL_FAILED"]);

function isCode(
  code: string,
): code is "BAD_REQUEST" | "TOOL_NOT_FOUND" | "UI_UNAVAILABLE" | "CALL_REFUSED" | "CHANNEL_FAILED" {
  return SERVER_CODES.has(code);
}
