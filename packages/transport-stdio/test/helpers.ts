import { readFileSync } from "node:fs";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  createTempDirectory,
  expectNoLeakedProcesses,
  leakMarkerEnv,
  readProcess,
  type TempDirectory,
} from "@mcp-tool-adapter/test-servers";
import { afterEach } from "vitest";
import {
  createStdioTransport,
  type StdioServerConfig,
  type StdioTransport,
  type StdioTransportOptions,
} from "../src/index.js";

export interface Observed {
  transport: StdioTransport;
  errors: Error[];
  closed: Promise<void>;
}

/**
 * A transport with its onerror/onclose recorded; `closed` resolves on onclose. The server's
 * environment carries the leak checker's marker, so leak checks find whatever it leaves behind
 * however it got away (independently of how the transport itself finds the server's processes).
 */
export function observe(config: StdioServerConfig, options: StdioTransportOptions = {}): Observed {
  const transport = createStdioTransport(
    { ...config, env: { ...leakMarkerEnv(), ...config.env } },
    { killGraceMs: 500, ...options },
  );
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
  const observed = observe(
    { ...config, command: process.execPath, args: ["-e", script, ...(config.args ?? [])] },
    options,
  );
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

/** The NUL-separated strings of a process's environment. */
export function environOf(pid: number): string[] {
  return readFileSync(`/proc/${pid}/environ`, "utf8")
    .split("\0")
    .filter((entry) => entry !== "");
}

/** Polls until `condition` holds, failing after `ms` (a bound for a hang, not a speed assertion). */
export async function waitFor(condition: () => boolean, what: string, ms = 10_000): Promise<void> {
  await within(
    (async () => {
      while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
    })(),
    ms,
    what,
  );
}

/**
 * Lists a test file fills with the clients and transports it opens; after each test they are
 * closed (clients first) and the leak check runs, so one test's server cannot outlive it.
 */
export function closeAfterEach(): { clients: Client[]; transports: StdioTransport[] } {
  const clients: Client[] = [];
  const transports: StdioTransport[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await Promise.all(transports.splice(0).map((transport) => transport.close()));
    await expectNoLeakedProcesses();
  });
  return { clients, transports };
}

/** A new temporary directory per call, each removed after the test that asked for it. */
export function scratchDirectoriesAfterEach(): () => Promise<string> {
  const directories: TempDirectory[] = [];
  afterEach(async () => {
    await Promise.all(directories.splice(0).map((directory) => directory.remove()));
  });
  return async () => {
    const directory = await createTempDirectory();
    directories.push(directory);
    return directory.path;
  };
}
