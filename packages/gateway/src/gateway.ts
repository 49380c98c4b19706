import {
  MCPServerSet,
  type Logger,
  type MCPServerSetOptions,
  type ServerEntries,
  type ServerSetConnectReport,
} from "mcp-tool-adapter";
import type { MCPRoot } from "@mcp-tool-adapter/adapter";
import { describeCause } from "@mcp-tool-adapter/core";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Implementation } from "@modelcontextprotocol/sdk/types.js";
import type { GatewayApproval } from "./approval.js";
import { Catalog, type GatewayToolFilter } from "./catalog.js";
import { ClientRouter } from "./client-router.js";
import { DownstreamSession, type SessionContext } from "./downstream-session.js";
import { forwardClientRequests } from "./forward-client-requests.js";
import { GatewayError } from "./errors.js";
import { createStatelessEndpoint, type StatelessEndpoint } from "./stateless-endpoint.js";
import { serveEitherEra } from "./either-era-connection.js";
import { checkPeerUrl } from "./held-call-retries.js";

/** The server set's policy and plumbing the gateway passes through unchanged. */
export type GatewayServerSetOptions = Pick<
  MCPServerSetOptions,
  "pinning" | "interceptors" | "recovery" | "telemetry" | "engine" | "auth" | "connectTimeoutMs" | "onHealthChange"
>;

export interface GatewayOptions {
  /** The upstream servers, as a config file's entries (`loadConfigFile(path).servers`). */
  servers: ServerEntries;
  /** Pinning, interceptors, recovery, telemetry, engine and auth for every upstream (see MCPServerSetOptions). */
  serverSet?: GatewayServerSetOptions;
  /** Hides tools from every downstream client (toolsets plug in here). */
  toolFilter?: GatewayToolFilter;
  /** Asks (or refuses) before tools the policy selects; default: no approval step. */
  approval?: GatewayApproval;
  /**
   * How long a 2026-07-28 call whose upstream asked for elicitation or sampling waits for the
   * client's retry with the answer before the upstream gets `cancel`. Default 300000 (five minutes).
   */
  inputTimeoutMs?: number;
  /**
   * How many 2026-07-28 calls may wait for their client's answer (an upstream's elicitation or
   * sampling, asked as `input_required`) at once in this gateway copy; each holds an upstream request
   * open. A new call past it is refused with the JSON-RPC error -32603, `data.code`
   * `TOO_MANY_CALLS_AWAITING_INPUT`, and its upstream's question is answered `cancel`. Default 100;
   * 0 refuses every such wait.
   */
  maxCallsAwaitingInput?: number;
  /**
   * The secret (at least 32 characters) that seals the `requestState` of a 2026-07-28 upstream's
   * `input_required` passed on to the client, so that its retry can reach any copy: give every copy
   * the same one (`serve --request-state-key-env NAME`). Default: a random secret of this process,
   * so a retry reaching another copy is refused with `REQUEST_STATE_UNKNOWN`.
   */
  requestStateKey?: string;
  /**
   * This copy's MCP endpoint as the other copies reach it directly, not through the load balancer
   * (e.g. `http://10.0.0.5:8931/mcp`; `serve --peer-url`). Needs `requestStateKey`. A 2026-07-28
   * call whose upstream (a 2025-era connection) asks for input waits in the copy that asked; with
   * this set, its `requestState` is sealed with this address, and a retry that lands on another
   * copy is passed on to this one, which answers it (the client's headers, its credentials
   * included, go with it: this copy checks them as its own). Its host must be one this copy accepts
   * (a loopback name, the bound host, or `allowedHosts`). Default: none, so such a retry must reach
   * the copy that asked (else `REQUEST_STATE_UNKNOWN`, naming this option).
   */
  peerUrl?: string;
  /** Expose upstream names without a server prefix. Default: true with exactly one server. Needs exactly one server. */
  singleServer?: boolean;
  /** What the gateway calls itself in `initialize`. */
  serverInfo?: Implementation;
  logger?: Logger;
  /**
   * Give each downstream 2025-era session its own connections to the upstream servers (for a stdio
   * server: its own process), opened when the session initializes and closed when it ends. Then an
   * upstream's elicitation and sampling always reach the client whose call asked, and each upstream
   * sees exactly its client's roots. Costs one set of upstream connections per session (plus the
   * shared one that 2026-07-28 requests use). `maxSessions` (default 16) bounds them: one more
   * session is refused with `TOO_MANY_SESSIONS` (HTTP 503). Default: off (one shared connection).
   */
  upstreamPerClient?: boolean | { maxSessions?: number };
}

/** One downstream client connected to the gateway. */
export interface GatewayConnection {
  readonly id: string;
  close(): Promise<void>;
}

/** A client served over a message stream: closed when the stream ends or close() is called. */
export interface GatewayStreamConnection {
  /** Resolves when the connection ended (the client closed the stream, or close() was called). */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/** A server set served as one MCP server: connect it once, then any number of downstream clients. */
export interface Gateway {
  /** The upstream servers; after start(), their adapters and registry. */
  readonly serverSet: MCPServerSet;
  /** Connects every upstream server (a failing one is left out and reported). */
  start(): Promise<ServerSetConnectReport>;
  /** Serves one 2025-era downstream client over `transport` (an HTTP session, stdio, an in-memory pair). */
  connect(transport: Transport): Promise<GatewayConnection>;
  /**
   * Serves one downstream client over a message stream (stdio, an in-memory pair) in the era it
   * opens with, as the official v2 SDK's `serveStdio` decides it: `initialize` (or a message with no
   * 2026-07-28 `_meta` envelope) pins a 2025-era session, a request carrying the envelope pins the
   * 2026-07-28 handlers the stateless HTTP endpoint uses. The gateway owns `transport` from here.
   */
  serveConnection(transport: Transport): GatewayStreamConnection;
  /**
   * Answers one 2026-07-28 request statelessly (fetch-shaped: a web `Request` in, a `Response`
   * out; `parsedBody` when the JSON body was already read). Nothing of the client is kept between
   * requests, so any copy of the gateway can answer any request. `listenHttp` routes every request
   * that carries the 2026-07-28 `_meta` envelope here and the 2025 ones to sessions.
   */
  serveStateless(request: Request, parsedBody?: unknown): Promise<Response>;
  /** The downstream clients connected now. */
  readonly connectionCount: number;
  /** Closes every downstream connection, then every upstream server. Never throws. */
  close(): Promise<void>;
}

const DEFAULT_SERVER_INFO: Implementation = { name: "mcp-tool-adapter-gateway", version: "0.1.0" };

/**
 * The gateway over one set of upstream connections shared by every downstream client (what
 * `createGateway` makes, see create-gateway.ts; with `upstreamPerClient`, one per session).
 */
export class ServerSetGateway implements Gateway {
  readonly serverSet: MCPServerSet;
  readonly #context: SessionContext;
  readonly #router = new ClientRouter<DownstreamSession>();
  readonly #logger: Logger | undefined;
  readonly #configuredRoots: ReadonlySet<string>;
  readonly #stops: (() => void)[] = [];
  readonly #stateless: StatelessEndpoint;

  constructor(options: GatewayOptions) {
    const names = Object.keys(options.servers);
    const singleServer = options.singleServer ?? names.length === 1;
    if (singleServer && names.length !== 1) {
      throw new GatewayError(
        "GATEWAY_OPTIONS_INVALID",
        `singleServer needs exactly one upstream server, and the config has ${names.length} (${names.join(", ") || "none"}); drop singleServer or keep one server.`,
      );
    }
    const maxWaiting = options.maxCallsAwaitingInput;
    if (maxWaiting !== undefined && (!Number.isInteger(maxWaiting) || maxWaiting < 0)) {
      throw new GatewayError(
        "GATEWAY_OPTIONS_INVALID",
        `maxCallsAwaitingInput must be a whole number of at least 0, and it is ${String(maxWaiting)}.`,
      );
    }
    const inputTimeout = options.inputTimeoutMs;
    if (inputTimeout !== undefined && (!Number.isInteger(inputTimeout) || inputTimeout < 1)) {
      throw new GatewayError(
        "GATEWAY_OPTIONS_INVALID",
        `inputTimeoutMs must be a whole number of milliseconds of at least 1, and it is ${String(inputTimeout)}.`,
      );
    }
    const peerUrl = checkPeerUrl(options.peerUrl, options.requestStateKey);
    this.#logger = options.logger;
    // An empty roots list declares the roots capability to each upstream, so a downstream client's roots can be passed up later.
    this.#configuredRoots = new Set(names.filter((name) => options.servers[name]?.roots !== undefined));
    const servers: ServerEntries = Object.fromEntries(
      Object.entries(options.servers).map(([name, entry]) => [name, { ...entry, roots: entry.roots ?? [] }]),
    );
    this.serverSet = new MCPServerSet(servers, {
      ...options.serverSet,
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      clientFeatures: {
        ...forwardClientRequests({ router: this.#router, fixedRoots: this.#configuredRoots }),
        onLog: (entry) => {
          for (const session of this.#router.sessions) session.forwardLog(entry);
          this.#stateless.forwardLog(entry);
        },
      },
    });
    const catalog = new Catalog({
      set: this.serverSet,
      singleServer,
      toolFilter: options.toolFilter,
      logger: options.logger,
    });
    this.#context = {
      catalog,
      router: this.#router,
      serverInfo: options.serverInfo ?? DEFAULT_SERVER_INFO,
      approval: options.approval,
      logger: options.logger,
      tracerProvider: options.serverSet?.telemetry === false ? undefined : options.serverSet?.telemetry?.tracerProvider,
      meterProvider: options.serverSet?.telemetry === false ? undefined : options.serverSet?.telemetry?.meterProvider,
      onRootsChanged: () => this.#passRootsUp(),
    };
    this.#stateless = createStatelessEndpoint({
      ...this.#context,
      router: this.#router,
      inputTimeoutMs: options.inputTimeoutMs,
      maxCallsAwaitingInput: maxWaiting,
      requestStateKey: options.requestStateKey,
      peerUrl,
    });
  }

  get connectionCount(): number {
    return this.#router.sessions.size;
  }

  async start(): Promise<ServerSetConnectReport> {
    const report = await this.serverSet.connect();
    this.#stops.push(
      this.serverSet.registry.subscribe(() => {
        this.#context.catalog.invalidateTools();
        this.#broadcast((session) => session.server.sendToolListChanged());
        this.#stateless.listChanged("tools");
      }),
    );
    for (const server of this.serverSet.serverNames) {
      const adapter = this.serverSet.getAdapter(server) as ListChangeSource | undefined;
      const onPrompts = adapter?.onPromptsChanged?.(() => {
        this.#broadcast((session) => session.server.sendPromptListChanged());
        this.#stateless.listChanged("prompts");
      });
      const onResources = adapter?.onResourcesChanged?.(() => {
        this.#broadcast((session) => session.server.sendResourceListChanged());
        this.#stateless.listChanged("resources");
      });
      if (onPrompts !== undefined) this.#stops.push(onPrompts);
      if (onResources !== undefined) this.#stops.push(onResources);
    }
    return report;
  }

  async connect(transport: Transport): Promise<GatewayConnection> {
    const session = new DownstreamSession(this.#context);
    await session.connect(transport);
    return { id: session.id, close: () => session.close() };
  }

  serveConnection(transport: Transport): GatewayStreamConnection {
    return serveEitherEra({
      transport,
      modern: () => this.#stateless.createServer(),
      legacy: () => new DownstreamSession(this.#context),
      logger: this.#logger,
      tracerProvider: this.#context.tracerProvider,
      meterProvider: this.#context.meterProvider,
    });
  }

  serveStateless(request: Request, parsedBody?: unknown): Promise<Response> {
    return this.#stateless.fetch(request, parsedBody);
  }

  async close(): Promise<void> {
    for (const stop of this.#stops.splice(0)) stop();
    await this.#stateless.close().catch(() => undefined);
    await Promise.all([...this.#router.sessions].map((session) => session.close().catch(() => undefined)));
    await this.serverSet.close();
  }

  #broadcast(send: (session: DownstreamSession) => Promise<void> | void): void {
    for (const session of this.#router.sessions) {
      try {
        void Promise.resolve(send(session)).catch(() => undefined);
      } catch {
        // A session closing meanwhile: nothing to tell it.
      }
    }
  }

  /**
   * Upstream connections are shared, so each upstream gets the union of the roots of the clients
   * connected now (by URI, the first name kept): every client's call may need its own folders. A
   * client leaving takes its roots with it. The config's own `roots` for a server win over all.
   */
  #passRootsUp(): void {
    const union = new Map<string, MCPRoot>();
    for (const session of this.#router.sessions) {
      for (const root of session.roots ?? []) if (!union.has(root.uri)) union.set(root.uri, root);
    }
    const roots = [...union.values()];
    for (const server of this.serverSet.serverNames) {
      if (this.#configuredRoots.has(server)) continue;
      const adapter = this.serverSet.getAdapter(server);
      adapter?.setRoots?.(roots).catch((error: unknown) => {
        this.#logger?.warn?.(
          `gateway: passing the clients' roots to MCP server "${server}" failed: ${describeCause(error)}`,
        );
      });
    }
  }
}

/** The list-change subscriptions MCPToolAdapter has beyond the set's adapter contract. */
interface ListChangeSource {
  onPromptsChanged?(listener: () => void): () => void;
  onResourcesChanged?(listener: () => void): () => void;
}
