import type { ServerTarget } from "../clients/bench-client.js";

/** Where a peer worker's client connects: the same targets as the in-process comparison's. */
export type PeerTarget = ServerTarget;

/**
 * One library's MCP client, driven the way that library's docs show a user calling a tool. The
 * worker times these operations; a call that did not succeed rejects, so a broken side cannot
 * look fast.
 */
export interface PeerClient {
  /** Starts the transport and completes the handshake (and whatever the library does before its first call). */
  connect(): Promise<void>;
  /** Calls `echo` with `args`. */
  call(tool: string, args: Record<string, unknown>): Promise<void>;
  /**
   * Lists every tool the way the library hands tools to an agent; resolves with how many there
   * are. Libraries that list while connecting answer the first call from that listing.
   */
  listAll(): Promise<number>;
  close(): Promise<void>;
}

export type PeerClientFactory = (target: PeerTarget) => PeerClient;

/**
 * What a side module exports: `load` imports the library and the transport it needs (timed by
 * the worker as "time to import") and returns the factory. Libraries are imported only inside `load`, so nothing of
 * theirs loads before the timer starts.
 */
export type LoadPeerClient = (transport: PeerTarget["kind"]) => Promise<PeerClientFactory>;

/** The library answered an echo call with an error or with nothing like the echo. */
export function failedCall(side: string, tool: string, detail: string): Error {
  return new Error(`${side}: tool "${tool}" did not succeed: ${detail}`);
}

/** A server environment with the SDK's defaults plus the bench's own variables, for libraries that replace the environment. */
export function stdioEnvironment(target: PeerTarget & { kind: "stdio" }): Record<string, string> | undefined {
  if (target.env === undefined) return undefined;
  const inherited: Record<string, string> = {};
  for (const name of ["HOME", "PATH", "SHELL", "TERM", "USER", "LOGNAME"]) {
    const value = process.env[name];
    if (value !== undefined) inherited[name] = value;
  }
  return { ...inherited, ...target.env };
}

/** What the stdio transport of either SDK generation takes for a target; stderr is ignored on every side. */
export function sdkStdioOptions(
  label: string,
  target: PeerTarget,
): { command: string; args: string[]; stderr: "ignore"; env?: Record<string, string> } {
  if (target.kind !== "stdio") throw new Error(`${label}: loaded for stdio, given an HTTP target`);
  const env = stdioEnvironment(target);
  return { command: target.command, args: [...target.args], stderr: "ignore", ...(env === undefined ? {} : { env }) };
}

/** The URL an SDK HTTP transport takes for a target. */
export function sdkHttpUrl(label: string, target: PeerTarget): URL {
  if (target.kind !== "streamable-http") throw new Error(`${label}: loaded for HTTP, given a stdio target`);
  return new URL(target.url);
}
