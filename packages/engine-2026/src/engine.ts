import { RelatedRequestTags } from "@mcp-tool-adapter/core/protocol";
import type {
  MCPEngine,
  MCPEngineAuthProvider,
  MCPEngineConnection,
  MCPEngineConnectRequest,
  MCPEngineServer,
  MCPProtocolEra,
  MCPProtocolSetting,
} from "@mcp-tool-adapter/core";
import { Client, type Transport, type VersionNegotiationOptions } from "@modelcontextprotocol/client";
import { Engine2026Connection } from "./connection.js";
import { EraVerdicts } from "./era-verdicts.js";
import { LegacyResultTransport } from "./legacy-results.js";
import { toSeamError } from "./errors.js";
import { withTasksExtension } from "./modern-tasks.js";
import { createEngine2026Transport } from "./transports.js";

/** The revision this engine speaks on the modern side. */
export const MODERN_REVISION = "2026-07-28";

const DEFAULT_LEGACY_VERDICT_TTL_MS = 3_600_000;
/** What the adapter's own default is; the SDK walks the pages of a list itself on this engine. */
const DEFAULT_MAX_LIST_PAGES = 1_000;

const DEFAULT_ABORTED_TASK_WAIT_MS = 5_000;

export interface Engine2026Options {
  /** How long a "this server speaks 2025" verdict of `auto` is reused before probing again. Default 1 hour. */
  legacyVerdictTtlMs?: number;
  /** Pages of a list the SDK follows before it gives up. Default 1000. */
  maxListPages?: number;
  /** Clock in ms for the verdicts' age and the listen stream's health; default Date.now. */
  now?: () => number;
  /**
   * A 2026-07-28 call to a server offering tasks, aborted before its answer arrived: how long to
   * keep listening for that answer, to cancel the task it may carry (`tasks/cancel`) rather than
   * leave it running until its TTL. The call itself ends at once with the abort. Default 5000.
   */
  abortedTaskWaitMs?: number;
  /**
   * The fetch of every HTTP request of the default transports: SSE, streamable HTTP (2026-07-28 and
   * the `auto` probe) and the 2025-era client of `@mcp-tool-adapter/transport-http`; a step-up
   * provider's scope challenges are read from its responses. Default: the global `fetch` (and for
   * the 2025-era client, transport-http's own default: undici's request API in Node). Inject one
   * for a proxy agent, or an instrumented or test fetch. With `transport` given, the engine does
   * not use it: pass it on there, as `createEngine2026Transport(server, authProvider, { fetch })`.
   */
  fetch?: typeof fetch;
  /**
   * Builds the SDK v2 transport of each connection (a fresh one per connect). Default:
   * `createEngine2026Transport`, from the server's config (with `fetch`). Inject one to decorate
   * that (observe a stdio child, add a fault) or to reach an in-process server.
   */
  transport?: Engine2026TransportFactory;
}

/** What `Engine2026Options.transport` is: an SDK v2 transport (not SDK 1.x's) for one server. */
export type Engine2026TransportFactory = (
  server: MCPEngineServer,
  /** The adapter's OAuth provider for an HTTP server, to hand on to `createEngine2026Transport`. */
  authProvider?: MCPEngineAuthProvider,
) => Transport | Promise<Transport>;

/**
 * Protocol revision 2026-07-28 and the 2025 era on `@modelcontextprotocol/client` 2.x. Per server:
 * `protocol: "2026-07-28"` speaks only the new revision; `"2025"` only the initialize handshake;
 * `"auto"` probes with `server/discover` over streamable HTTP and remembers what it found, and stays
 * on 2025 over stdio and SSE (docs/protocol-versions.md says why).
 */
export class Engine2026 implements MCPEngine {
  readonly name = "@mcp-tool-adapter/engine-2026";
  readonly protocols: readonly MCPProtocolSetting[] = Object.freeze(["auto", "2025", MODERN_REVISION]);
  readonly #verdicts: EraVerdicts;
  readonly #maxListPages: number;
  readonly #now: () => number;
  readonly #abortedTaskWaitMs: number;
  readonly #transport: Engine2026TransportFactory;

  constructor(options: Engine2026Options = {}) {
    this.#now = options.now ?? (() => Date.now());
    this.#abortedTaskWaitMs = options.abortedTaskWaitMs ?? DEFAULT_ABORTED_TASK_WAIT_MS;
    this.#verdicts = new EraVerdicts(options.legacyVerdictTtlMs ?? DEFAULT_LEGACY_VERDICT_TTL_MS, this.#now);
    this.#maxListPages = options.maxListPages ?? DEFAULT_MAX_LIST_PAGES;
    this.#transport = options.transport ?? defaultTransport(options.fetch);
  }

  /** The era `auto` found for `server` and still trusts; undefined when it would probe. */
  knownEra(server: MCPEngineServer): MCPProtocolEra | undefined {
    return this.#verdicts.get(server);
  }

  async connect(request: MCPEngineConnectRequest): Promise<MCPEngineConnection> {
    const { server } = request;
    const setting = server.protocol ?? "auto";
    const probes = setting === "auto" && server.transport === "streamable-http";
    const known = probes ? this.#verdicts.get(server) : undefined;
    try {
      const connection = await this.#open(request, negotiation(setting, probes, known));
      if (probes) this.#verdicts.set(server, connection.era);
      return connection;
    } catch (error) {
      // A server whose era changed since the verdict: forget it and find out again, once.
      if (known === undefined || request.signal.aborted) throw error;
      this.#verdicts.forget(server);
      const connection = await this.#open(request, { mode: "auto" });
      this.#verdicts.set(server, connection.era);
      return connection;
    }
  }

  async #open(
    request: MCPEngineConnectRequest,
    versionNegotiation: VersionNegotiationOptions,
  ): Promise<Engine2026Connection> {
    const created = await this.#transport(request.server, request.authProvider);
    // Old result shapes come only from 2025-era servers; a pinned 2026-07-28 connection keeps the
    // SDK's own transport (its stdio probe reads the transport's class and launch parameters).
    // Only 2025-era servers send requests of their own, on a POST's response stream over HTTP: `links` follows that.
    const links = typeof versionNegotiation.mode === "object" ? undefined : new RelatedRequestTags();
    const transport = links === undefined ? created : new LegacyResultTransport(created, links);
    const client = new Client(request.clientInfo, {
      capabilities: withTasksExtension(request.capabilities),
      versionNegotiation: { ...versionNegotiation, probe: { timeoutMs: request.timeoutMs } },
      listMaxPages: this.#maxListPages,
    });
    const connection = new Engine2026Connection(client, transport, request, {
      now: this.#now,
      abortedTaskWaitMs: this.#abortedTaskWaitMs,
      links,
    });
    try {
      await client.connect(transport, { timeout: request.timeoutMs, signal: request.signal });
      connection.connected();
      await connection.listen(request.timeoutMs, request.signal);
    } catch (error) {
      await connection.close().catch(() => undefined);
      throw toSeamError(error);
    }
    return connection;
  }
}

/** `createEngine2026Transport`, with the engine's fetch when it was given one. */
function defaultTransport(fetchFn: typeof fetch | undefined): Engine2026TransportFactory {
  if (fetchFn === undefined) return createEngine2026Transport;
  return (server, authProvider) => createEngine2026Transport(server, authProvider, { fetch: fetchFn });
}

/** The SDK's negotiation for a `protocol` setting (and what `auto` already knows). */
function negotiation(
  setting: MCPProtocolSetting,
  probes: boolean,
  known: MCPProtocolEra | undefined,
): VersionNegotiationOptions {
  if (setting === MODERN_REVISION || known === MODERN_REVISION) return { mode: { pin: MODERN_REVISION } };
  if (setting === "2025" || !probes || known === "2025") return { mode: "legacy" };
  return { mode: "auto" };
}

/** The 2026 engine, for the adapter's `engine` option. */
export function createEngine2026(options?: Engine2026Options): Engine2026 {
  return new Engine2026(options);
}
