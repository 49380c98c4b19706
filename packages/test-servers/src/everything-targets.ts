import { startEverythingHttp } from "./http-servers.js";
import { everythingStdioServer } from "./real-servers.js";

/** An adapter config (named "everything") for a running server-everything, and how to stop what was started for it. */
export interface RunningEverything {
  readonly config:
    | { readonly name: "everything"; readonly transport: "stdio"; readonly command: string; readonly args: string[] }
    | { readonly name: "everything"; readonly transport: "streamable-http"; readonly url: string };
  stop(): Promise<void>;
}

/** One way to reach server-everything; `describe.each(EVERYTHING_TARGETS)` runs a suite over each. */
export interface EverythingTarget {
  readonly label: "stdio" | "streamable-http";
  /** Starts what the target needs (an HTTP server on a free 127.0.0.1 port; nothing for stdio, where each connect starts the process). */
  start(): Promise<RunningEverything>;
}

/** server-everything over stdio and over streamable HTTP: the two transports a client-side feature test covers. */
export const EVERYTHING_TARGETS: readonly EverythingTarget[] = [
  {
    label: "stdio",
    start: () =>
      Promise.resolve({
        config: { name: "everything", transport: "stdio", ...everythingStdioServer() },
        stop: () => Promise.resolve(),
      }),
  },
  {
    label: "streamable-http",
    start: async () => {
      const http = await startEverythingHttp({ mode: "streamableHttp" });
      return { config: { name: "everything", transport: "streamable-http", url: http.url }, stop: () => http.stop() };
    },
  },
];
