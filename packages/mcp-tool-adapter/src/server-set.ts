import type { Logger, MCPServerConfig, MCPServerHealth, RegisterToolsOptions } from "@mcp-tool-adapter/adapter";
import { clampTimer, positiveOr } from "@mcp-tool-adapter/core/value-rules";
import { ToolRegistry, validateToolName } from "@mcp-tool-adapter/registry";
import { classifyServerFailure } from "./server-set/classify-failure.js";
import { defaultAdapterFactory } from "./server-set/default-adapter-factory.js";
import { MCPServerSetError } from "./server-set/errors.js";
import { loadServerAuth, needsServerAuth } from "./server-set/lazy-server-auth.js";
import type { MCPServerSetOptions, ServerSetConnectOptions } from "./server-set/options.js";
import type { ServerEntries, ServerEntry } from "./server-set/server-entry.js";
import type {
  ServerConnectResult,
  ServerFailure,
  ServerFailureKind,
  ServerSetAdapter,
  ServerSetAdapterFactory,
  ServerSetCloseReport,
  ServerSetConnectReport,
} from "./server-set/types.js";

const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
const DEFAULT_CLOSE_TIMEOUT_MS = 10_000;
/** The adapter enforces the connect and close deadlines itself; ours fire a little later so its more precise error wins. */
const DEADLINE_GRACE_MS = 250;

interface Member {
  readonly name: string;
  readonly entry: ServerEntry;
  adapter?: ServerSetAdapter;
  /** Connected and registered: close() reports on it. */
  connected: boolean;
  registered: boolean;
  /** Stops listening for a server whose first connect failed coming back (recovery on). */
  stopWatching?: () => void;
}

/**
 * Many MCP servers behind one ToolRegistry. `connect()` starts every server in parallel, each
 * with its own deadline, and registers each server's tools under its name (`memory/read_graph`).
 * One server failing never costs the others their tools: the report lists it with a classified
 * error and its timings. `close()` disconnects everything and never throws.
 */
export class MCPServerSet {
  readonly registry: ToolRegistry;
  readonly #members: Member[];
  readonly #factory: ServerSetAdapterFactory;
  /** The factory below, which needs the OAuth code loaded before it builds an HTTP server's adapter. */
  readonly #defaultFactory: boolean;
  readonly #connectTimeoutMs: number;
  readonly #closeTimeoutMs: number;
  readonly #logger: Logger | undefined;
  readonly #now: () => number;
  /** Cleanups of servers that missed their deadline but may still finish connecting. */
  readonly #stragglers = new Set<Promise<void>>();
  #connecting: Promise<ServerSetConnectReport> | undefined;

  constructor(servers: ServerEntries, options: MCPServerSetOptions = {}) {
    this.registry =
      options.registry ?? new ToolRegistry(options.logger === undefined ? {} : { logger: options.logger });
    this.#members = Object.entries(servers).map(([name, entry]) => ({
      name,
      entry,
      connected: false,
      registered: false,
    }));
    this.#factory = options.adapterFactory ?? defaultAdapterFactory(options);
    this.#defaultFactory = options.adapterFactory === undefined;
    this.#connectTimeoutMs = positiveOr(options.connectTimeoutMs, DEFAULT_CONNECT_TIMEOUT_MS);
    this.#closeTimeoutMs = positiveOr(options.closeTimeoutMs, DEFAULT_CLOSE_TIMEOUT_MS);
    this.#logger = options.logger;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Server names in declaration order. */
  get serverNames(): string[] {
    return this.#members.map((member) => member.name);
  }

  /** The adapter of a server once connect() has built it (connected or not); undefined for an unknown name. */
  getAdapter(serverName: string): ServerSetAdapter | undefined {
    return this.#members.find((member) => member.name === serverName)?.adapter;
  }

  /** Each built adapter's health (servers whose adapter has none are left out), by server name. */
  get health(): Record<string, MCPServerHealth> {
    const health: Record<string, MCPServerHealth> = {};
    for (const member of this.#members)
      if (member.adapter?.health !== undefined) health[member.name] = member.adapter.health;
    return health;
  }

  /**
   * Connects every server in parallel and registers their tools. Resolves (never rejects) with
   * one result per server once each has connected, failed or missed its deadline. Calling it
   * again before close() returns the same report.
   */
  connect(options: ServerSetConnectOptions = {}): Promise<ServerSetConnectReport> {
    this.#connecting ??= this.#connectAll(options);
    return this.#connecting;
  }

  /**
   * Unregisters every server's tools and disconnects every adapter, in parallel. Never throws:
   * failures are in the report. After it, connect() starts afresh.
   */
  async close(): Promise<ServerSetCloseReport> {
    const connecting = this.#connecting;
    if (connecting !== undefined) await connecting;
    const results = await Promise.all(this.#members.map((member) => this.#closeMember(member)));
    await Promise.all([...this.#stragglers]);
    this.#connecting = undefined;
    const report: ServerSetCloseReport = { closed: [], failed: [] };
    for (const result of results) {
      if (result === undefined) continue;
      if (result.error === undefined) report.closed.push(result.name);
      else report.failed.push({ name: result.name, error: result.error });
    }
    return report;
  }

  async #connectAll(options: ServerSetConnectOptions): Promise<ServerSetConnectReport> {
    const start = this.#now();
    const servers = await Promise.all(
      this.#members.map(async (member) => {
        const result = await this.#connectMember(member);
        if (result.status === "failed") {
          this.#logger?.warn?.(
            `MCP server "${member.name}" failed (${result.error?.kind ?? "unknown"}): ${result.error?.message ?? ""}`,
          );
        }
        try {
          options.onServerResult?.(result);
        } catch (error) {
          this.#logger?.warn?.(`onServerResult threw for server "${member.name}"; ignored`, { error });
        }
        return result;
      }),
    );
    return {
      servers,
      connected: servers.filter((s) => s.status === "connected").map((s) => s.name),
      failed: servers.filter((s) => s.status === "failed").map((s) => s.name),
      toolCount: servers.reduce((sum, s) => sum + s.tools.length, 0),
      durationMs: this.#now() - start,
      ok: servers.every((s) => s.status === "connected"),
    };
  }

  async #connectMember(member: Member): Promise<ServerConnectResult> {
    const start = this.#now();
    const { name, entry } = member;
    const failed = (
      stage: ServerConnectResult["stage"],
      error: unknown,
      fallback: ServerFailureKind,
      extra: Partial<ServerConnectResult> = {},
    ): ServerConnectResult => ({
      name,
      transport: member.adapter?.transportType ?? entry.transport,
      status: "failed",
      stage,
      durationMs: this.#now() - start,
      tools: [],
      skipped: [],
      error: classifyServerFailure(error, fallback),
      ...extra,
    });

    const nameProblem = validateToolName("namespace", name);
    if (nameProblem !== undefined) {
      const error = new MCPServerSetError(
        "SERVER_NAME_INVALID",
        `Server name "${name}" cannot be a tool namespace: ${nameProblem}. Rename the server in the config.`,
        { serverName: name },
      );
      return failed("config", error, "config_invalid");
    }
    let adapter: ServerSetAdapter;
    try {
      if (this.#defaultFactory && needsServerAuth(entry)) await loadServerAuth();
      adapter = this.#factory(toServerConfig(name, entry), { serverName: name, entry });
    } catch (error) {
      return failed("config", error, "config_invalid");
    }
    member.adapter = adapter;

    const timeoutMs = positiveOr(entry.connectTimeoutMs, this.#connectTimeoutMs);
    // Written by the work below and read when it fails or times out, so kept in one object.
    const progress: { stage: "connect" | "register"; handshakeMs?: number } = { stage: "connect" };
    const work = (async () => {
      await adapter.connect({ timeoutMs });
      progress.handshakeMs = this.#now() - start;
      progress.stage = "register";
      const report = await adapter.registerTools(this.registry, name, registerOptions(entry));
      member.registered = true;
      return report;
    })();

    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), clampTimer(timeoutMs + DEADLINE_GRACE_MS));
    });
    try {
      const outcome = await Promise.race([work, deadline]);
      if (outcome === "timeout") {
        this.#abandon(member, work);
        const error = new MCPServerSetError(
          "SERVER_TIMEOUT",
          `MCP server "${name}" did not connect and list its tools within ${timeoutMs} ms. Raise the timeout (connectTimeoutMs) or check that the server starts.`,
          { serverName: name },
        );
        return failed(progress.stage, error, "timeout", timing(progress));
      }
      member.connected = true;
      return {
        name,
        transport: adapter.transportType,
        status: "connected",
        ...(adapter.protocolEra === undefined ? {} : { protocolEra: adapter.protocolEra }),
        ...timing(progress),
        durationMs: this.#now() - start,
        tools: [...outcome.registered],
        skipped: [...outcome.skipped],
      };
    } catch (error) {
      // Connected but could not list or register: do not leave the server running.
      if (progress.stage === "register") await this.#disconnectQuietly(adapter, name);
      else this.#registerWhenBack(member, adapter);
      return failed(
        progress.stage,
        error,
        progress.stage === "register" ? "registration_failed" : "connection_failed",
        timing(progress),
      );
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * A server whose first connect failed while its adapter keeps trying in the background (recovery
   * on: its health is down, not disconnected): its tools are registered once it is back, and it is
   * then closed like any connected server. The connect report keeps saying it failed.
   */
  #registerWhenBack(member: Member, adapter: ServerSetAdapter): void {
    if (adapter.onHealthChange === undefined || adapter.health === undefined) return;
    if (!adapter.health.recovery || adapter.health.state === "disconnected") return;
    member.stopWatching = adapter.onHealthChange((event) => {
      if (event.to !== "connected" || member.adapter !== adapter || member.registered) return;
      const registering = adapter
        .registerTools(this.registry, member.name, registerOptions(member.entry))
        .then(
          (report) => {
            if (member.adapter !== adapter) {
              // close() took the server meanwhile: leave nothing in the registry.
              this.#unregisterQuietly(adapter, member.name);
              return;
            }
            member.registered = true;
            member.connected = true;
            this.#logger?.info?.(
              `MCP server "${member.name}" is back after its first connect failed: ${report.registered.length} tools registered`,
            );
          },
          (error: unknown) => {
            if (member.adapter !== adapter) return; // closed meanwhile: the failure is the close's
            this.#logger?.warn?.(
              `MCP server "${member.name}" is back, but registering its tools failed; they are registered when it reconnects`,
              { error },
            );
          },
        )
        .finally(() => this.#stragglers.delete(registering));
      this.#stragglers.add(registering);
    });
  }

  /** A server missed its deadline: whenever its work settles, take its tools back out and disconnect it. */
  #abandon(member: Member, work: Promise<unknown>): void {
    const adapter = member.adapter;
    member.adapter = undefined;
    const cleanup = work
      .catch(() => undefined)
      .then(async () => {
        if (adapter === undefined) return;
        if (member.registered) {
          member.registered = false;
          this.#unregisterQuietly(adapter, member.name);
        }
        await this.#disconnectQuietly(adapter, member.name);
      })
      .finally(() => this.#stragglers.delete(cleanup));
    this.#stragglers.add(cleanup);
  }

  async #closeMember(member: Member): Promise<{ name: string; error?: ServerFailure } | undefined> {
    member.stopWatching?.();
    member.stopWatching = undefined;
    const adapter = member.adapter;
    if (adapter === undefined) return undefined;
    member.adapter = undefined;
    if (!member.connected) {
      // Its connect failed and left nothing running; disconnect anyway in case it half-opened.
      await this.#disconnectQuietly(adapter, member.name);
      return undefined;
    }
    member.connected = false;
    if (member.registered) {
      member.registered = false;
      this.#unregisterQuietly(adapter, member.name);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const outcome = await Promise.race([
        adapter.disconnect().then(() => "closed" as const),
        new Promise<"timeout">((resolve) => {
          timer = setTimeout(() => resolve("timeout"), clampTimer(this.#closeTimeoutMs + DEADLINE_GRACE_MS));
        }),
      ]);
      if (outcome === "timeout") {
        const error = new MCPServerSetError(
          "SERVER_TIMEOUT",
          `MCP server "${member.name}" did not disconnect within ${this.#closeTimeoutMs} ms.`,
          { serverName: member.name },
        );
        return { name: member.name, error: classifyServerFailure(error, "timeout") };
      }
      return { name: member.name };
    } catch (error) {
      return { name: member.name, error: classifyServerFailure(error) };
    } finally {
      clearTimeout(timer);
    }
  }

  #unregisterQuietly(adapter: ServerSetAdapter, name: string): void {
    try {
      adapter.unregisterTools(this.registry, name);
    } catch (error) {
      this.#logger?.warn?.(`Removing the tools of MCP server "${name}" from the registry failed`, { error });
    }
  }

  async #disconnectQuietly(adapter: ServerSetAdapter, name: string): Promise<void> {
    try {
      await adapter.disconnect();
    } catch (error) {
      this.#logger?.warn?.(`Disconnecting MCP server "${name}" failed`, { error });
    }
  }
}

function toServerConfig(name: string, entry: ServerEntry): MCPServerConfig {
  const {
    tools: _tools,
    connectTimeoutMs: _connectTimeoutMs,
    callTimeoutMs: _callTimeoutMs,
    roots: _roots,
    logLevel: _logLevel,
    auth: _auth,
    recovery: _recovery,
    ...config
  } = entry;
  return { ...config, name };
}

function registerOptions(entry: ServerEntry): RegisterToolsOptions {
  const tools = entry.tools;
  if (tools === undefined) return {};
  const options: RegisterToolsOptions = {};
  if (tools.overrides !== undefined) options.overrides = tools.overrides;
  if (tools.include !== undefined || tools.exclude !== undefined) {
    options.filter = {
      ...(tools.include === undefined ? {} : { include: tools.include }),
      ...(tools.exclude === undefined ? {} : { exclude: tools.exclude }),
    };
  }
  return options;
}

function timing(progress: { handshakeMs?: number }): { handshakeMs?: number } {
  return progress.handshakeMs === undefined ? {} : { handshakeMs: progress.handshakeMs };
}
