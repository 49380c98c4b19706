import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { StdioMCPServerConfig, TransportFactory } from "@mcp-tool-adapter/adapter";
import { findStdioConfigIssues } from "@mcp-tool-adapter/transport-stdio";
import { TRANSPORT_FIELDS } from "../config-file/entry-options-schema.generated.js";
import { buildDefaultTransport } from "../default-transport.js";
import type { ServerEntry } from "../server-set/server-entry.js";
import type { ServerSetTransportChoice } from "../server-set/types.js";

/** A stdio server the CLI started as soon as its config entry was read, for the set to take over. */
export interface EarlyServer {
  /** The server set's transport choice: this process for the server's first connect, the default transport after. */
  readonly transportChoice: ServerSetTransportChoice;
  /** Stops the process when no connect took it (the command failed first); else a no-op. */
  release(): Promise<void>;
}

/**
 * Spawns a stdio server before the adapter, the MCP SDK and the rest of the command are loaded,
 * so the server starts while they load. Undefined for HTTP servers (nothing to spawn). The
 * transport is the one the server set's default factory would build for the entry.
 */
export function startServerEarly(serverName: string, entry: ServerEntry): EarlyServer | undefined {
  if (entry.transport !== "stdio") return undefined;
  const transport = buildDefaultTransport({ ...entry, name: serverName }, {}) as Transport;
  const started = transport.start();
  // A spawn failure is reported by the connect that takes the transport, not as an unhandled rejection here.
  started.catch(() => undefined);
  let taken = false;
  const firstConnect: TransportFactory = (config) => {
    if (taken) return buildDefaultTransport(config, {});
    taken = true;
    return new AlreadyStartedTransport(transport, started);
  };
  return {
    transportChoice: (_config, context) => (context.serverName === serverName ? firstConnect : undefined),
    async release() {
      if (taken) return;
      taken = true;
      await transport.close();
    },
  };
}

/** What spawns a stdio server: the stdio transport's fields of an entry. */
export type StdioSpawnConfig = Omit<StdioMCPServerConfig, "name" | "transport">;

/** A server the bin's fast path spawned before the command line was parsed, for `call` to take. */
export interface PrestartedServer {
  /**
   * The early server for the command's own entry, when it is `serverName` and spawns exactly what
   * the fast path spawned; else undefined (then release() it).
   */
  take(serverName: string, entry: ServerEntry): EarlyServer | undefined;
  /** Stops the process when no connect took it; else a no-op. */
  release(): Promise<void>;
}

/**
 * Spawns the server the fast path read from the config; undefined (nothing spawned) when the
 * stdio transport's rules reject the fields, so the normal path reports them as before.
 */
export function prestartServer(serverName: string, config: StdioSpawnConfig): PrestartedServer | undefined {
  if (findStdioConfigIssues(config).length > 0) return undefined;
  const early = startServerEarly(serverName, { transport: "stdio", ...config });
  if (early === undefined) return undefined;
  return {
    take: (name, entry) =>
      name === serverName && entry.transport === "stdio" && sameSpawn(entry, config) ? early : undefined,
    release: () => early.release(),
  };
}

function sameSpawn(entry: StdioSpawnConfig, config: StdioSpawnConfig): boolean {
  return TRANSPORT_FIELDS.stdio.every((field) => JSON.stringify(entry[field]) === JSON.stringify(config[field]));
}

/** The early transport as the SDK client sees it: start() is the spawn already under way. */
class AlreadyStartedTransport implements Transport {
  readonly #inner: Transport;
  readonly #started: Promise<void>;

  constructor(inner: Transport, started: Promise<void>) {
    this.#inner = inner;
    this.#started = started;
  }

  start(): Promise<void> {
    return this.#started;
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.#inner.send(message, options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  get onclose(): (() => void) | undefined {
    return this.#inner.onclose;
  }

  set onclose(handler: (() => void) | undefined) {
    this.#inner.onclose = handler;
  }

  get onerror(): ((error: Error) => void) | undefined {
    return this.#inner.onerror;
  }

  set onerror(handler: ((error: Error) => void) | undefined) {
    this.#inner.onerror = handler;
  }

  get onmessage(): Transport["onmessage"] {
    return this.#inner.onmessage;
  }

  set onmessage(handler: Transport["onmessage"]) {
    this.#inner.onmessage = handler;
  }

  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.#inner.setProtocolVersion?.(version);
  }
}
