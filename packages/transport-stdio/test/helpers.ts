import { readProcess } from "@mcp-tool-adapter/test-servers";
import { createStdioTransport, type StdioServerConfig, type StdioTransport, type StdioTransportOptions } from "../src/index.js";

export interface Observed {
  transport: StdioTransport;
  errors: Error[];
  closed: Promise<void>;
}

/** A transport with its onerror/onclose recorded; `closed` resolves on onclose. */
export function observe(config: StdioServerConfig, options: StdioTransportOptions = {}): Observed {
  const transport = createStdioTransport(config, { killGraceMs: 500, ...options });
  const errors: Error[] = [];
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  transport.onerror = (error) => errors.push(error);
  transport.onclose = () => markClosed();
  return { transport, errors, closed };
}

/** Runs a short node script as the "server" and waits until it has exited and the transport closed. */
export async function runNodeScript(
  script: string,
  config: Omit<StdioServerConfig, "command"> = {},
  options: StdioTransportOptions = {},
): Promise<Observed> {
  const observed = observe({ ...config, command: process.execPath, args: ["-e", script, ...(config.args ?? [])] }, options);
  await observed.transport.start();
  await observed.closed;
  await observed.transport.close();
  return observed;
}

/** Rejects when `promise` takes longer than `ms` (bounds a test wait without asserting speed). */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Running, as opposed to gone or a zombie (an orphan's zombie can wait a while for init to reap it). */
export function isAlive(pid: number): boolean {
  const info = readProcess(pid);
  return info !== undefined && info.state !== "Z";
}
