import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Implementation } from "@modelcontextprotocol/sdk/types.js";
import {
  SESSION_ERROR_CONNECTION_LOST,
  type MCPEngine,
  type MCPEngineAuthProvider,
  type MCPEngineConnection,
  type MCPEngineMessage,
  type MCPEngineRequestOptions,
  type MCPEngineRequestHandler,
} from "@mcp-tool-adapter/core";
import type { ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { createSdkJsonSchemaValidator, type SchemaValidator } from "@mcp-tool-adapter/schema-validation";
import type { MCPServerConfig } from "../config.js";
import { Deadline } from "../deadline.js";
import { chooseEngine, isBuiltInEngine, type MCPBuiltInEngine } from "../engine/built-in-engines.js";
import { checkEngineProtocol } from "../engine/engine-choice.js";
import {
  describeCause,
  MCPConfigError,
  MCPConnectionError,
  MCPNotConnectedError,
  MCPServerUnavailableError,
  withoutFullStop,
} from "../errors.js";
import { isSessionExpired } from "../recovery/call-safety.js";
import type { RecoveryPolicy } from "../recovery/options.js";
import { RecoverySupervisor } from "../recovery/supervisor.js";
import type { Redactor } from "../redaction.js";
import { SerialQueue } from "../serial-queue.js";
import { Session } from "../session.js";
import type { Instrumentation } from "../telemetry/instrumentation.js";
import { sendTraced } from "../telemetry/traced-request.js";
import { positiveOr, withTimeout } from "../timeouts.js";
import { describeTransportFailure, isConnectionGone } from "../transport-failure.js";
import { closeOnPurpose, closeQuietly } from "../transport-lifecycle.js";
import type { TransportFactory } from "../config.js";
import type { Logger } from "../types.js";
import { NotificationRoutes } from "./notification-routes.js";

/**
 * The engine a connection runs on (the one given, a built-in one by name, or the default),
 * refused at once when it cannot speak the config's `protocol`.
 */
export function connectionEngine(
  config: MCPServerConfig,
  choice: MCPEngine | MCPBuiltInEngine | undefined,
  inputs: {
    readonly transport: Transport | TransportFactory | undefined;
    readonly closeTimeoutMs: number;
    readonly validator: SchemaValidator;
  },
): MCPEngine {
  const { transport, closeTimeoutMs, validator } = inputs;
  const jsonSchemaValidator = () => createSdkJsonSchemaValidator(validator);
  const engine = chooseEngine(choice, { transport, closeTimeoutMs, jsonSchemaValidator });
  checkEngineProtocol(engine, config, typeof choice !== "object");
  return engine;
}

type LifecycleKind = "connect" | "disconnect" | "reconnect" | "recover";

/** What the connection layer is built from; the facade fills it once. */
export interface ServerConnectionContext {
  readonly serverName: string;
  readonly config: Readonly<MCPServerConfig>;
  readonly engine: MCPEngine;
  readonly clientInfo: Implementation;
  readonly connectTimeoutMs: number;
  readonly closeTimeoutMs: number;
  readonly logger: Logger | undefined;
  readonly redactor: Redactor;
  readonly now: () => number;
  readonly instrumentation: Instrumentation | undefined;
  /** Recovery's policy; undefined when recovery is off. */
  readonly recovery: RecoveryPolicy | undefined;
  /** What this client offers the server (elicitation, sampling, roots), asked on every connect. */
  readonly offers: {
    capabilities(): ClientCapabilities;
    requestHandlers(): Record<string, MCPEngineRequestHandler>;
  };
}

/** The adapter options the connection reads (MCPToolAdapterOptions has them). */
export interface ConnectionOptions {
  /** The default engines' transport (or a factory called on each connect). */
  readonly transport?: Transport | TransportFactory | undefined;
  /** OAuth for an engine that builds its own HTTP transports. */
  readonly authProvider?: MCPEngineAuthProvider | undefined;
}

/** What the features are told of a session's life; every hook is optional. */
export interface SessionHooks {
  /** A new session is live (after connect, reconnect or a recovery). */
  opened?(session: Session): void;
  /** reconnect() closed the old session and is about to open a new one. */
  reconnecting?(): void;
  /** A recovery opened `session`: restore what the host had on the one that dropped. */
  recovered?(session: Session): Promise<void>;
}

/** A feature of the adapter as the connection layer sees it (tool sync, server features). */
export interface ConnectionFeature extends SessionHooks {
  /** Registers the notification methods the feature follows. */
  followNotifications(routes: NotificationRoutes): void;
}

/**
 * The connection layer: opens, closes, reconnects and recovers the engine's connection, one
 * lifecycle change at a time; owns the live Session, the routing table the features register
 * their notifications into, and the recovery supervisor (health, restarts).
 */
export class ServerConnection {
  readonly routes = new NotificationRoutes();
  readonly supervisor: RecoverySupervisor;
  readonly #context: ServerConnectionContext;
  readonly #options: ConnectionOptions;
  readonly #lifecycle = new SerialQueue<LifecycleKind>();
  readonly #hooks: SessionHooks[] = [];
  #session: Session | undefined;
  /** When the current session opened (the context's clock): its duration is recorded when it ends. */
  #openedAt = 0;
  readonly #requestFailed = (session: Session, error: unknown): Error => this.#failed(session, error);

  constructor(context: ServerConnectionContext, options: ConnectionOptions) {
    this.#context = context;
    // Read once, as the adapter always did: a later change to the options object changes nothing.
    this.#options = { transport: options.transport, authProvider: options.authProvider };
    this.supervisor = new RecoverySupervisor(
      {
        serverName: context.config.name,
        logger: context.logger,
        now: context.now,
        reopen: (signal) => this.#lifecycle.run("recover", () => this.#recover(signal)),
      },
      context.recovery,
    );
  }

  /** Recovery's policy; undefined when recovery is off (the call pipeline then never waits or retries). */
  get recoveryPolicy(): RecoveryPolicy | undefined {
    return this.#context.recovery;
  }

  /** OpenTelemetry, shared with the call pipeline; undefined when turned off. */
  get instrumentation(): Instrumentation | undefined {
    return this.#context.instrumentation;
  }

  /** The live session; undefined while not connected. */
  get session(): Session | undefined {
    return this.#session;
  }

  /**
   * Attaches features, in order: each follows its notifications through the routing table and
   * hears of every session that opens, reconnects or recovers.
   */
  attach(...features: ConnectionFeature[]): void {
    for (const feature of features) {
      feature.followNotifications(this.routes);
      this.#hooks.push(feature);
    }
  }

  /** `timeoutMs` when positive, else the adapter's connectTimeoutMs. */
  connect(timeoutMs: number | undefined): Promise<void> {
    const tail = this.#lifecycle.tail;
    if (tail?.kind === "connect") return tail.promise;
    if (tail === undefined && this.#session !== undefined) return Promise.resolve();
    const ticket = this.supervisor.connectTicket();
    return this.#lifecycle.run("connect", async () => {
      await this.#open(positiveOr(timeoutMs, this.#context.connectTimeoutMs), "connect").catch((error: unknown) => {
        // With recovery on, a server that fails its first connect is supervised from here (it still throws).
        if (MCPConnectionError.isInstance(error)) this.supervisor.connectFailed(ticket, error.message);
        throw error;
      });
      this.supervisor.connected("connect() was called");
    });
  }

  disconnect(): Promise<void> {
    // At once, not when the job runs: no restart may be queued behind this disconnect.
    this.supervisor.disconnected("disconnect() was called");
    const tail = this.#lifecycle.tail;
    if (tail?.kind === "disconnect") return tail.promise;
    if (tail === undefined && this.#session === undefined) return Promise.resolve();
    return this.#lifecycle.run("disconnect", () => this.#close("disconnect() was called"));
  }

  reconnect(timeoutMs: number | undefined): Promise<void> {
    const deadlineMs = positiveOr(timeoutMs, this.#context.connectTimeoutMs);
    return this.#lifecycle.run("reconnect", async () => {
      await this.#close("reconnect() was called");
      for (const hooks of this.#hooks) hooks.reconnecting?.();
      try {
        await this.#open(deadlineMs, "reconnect");
      } catch (error) {
        this.supervisor.disconnected("reconnect() failed");
        throw error;
      }
      this.supervisor.connected("reconnect() was called");
    });
  }

  /** The live session, or the error that says why there is none (down, reconnecting, not connected). */
  require(action: string): Session {
    const session = this.#session;
    if (session === undefined) throw this.notConnected(action);
    return session;
  }

  notConnected(action: string): MCPNotConnectedError | MCPServerUnavailableError {
    const serverName = this.#context.config.name;
    const state = this.supervisor.state;
    if (state === "down") {
      return new MCPServerUnavailableError(`Cannot ${action}: ${this.supervisor.downMessage()}`, { serverName });
    }
    if (state === "reconnecting" || state === "probing") {
      return new MCPNotConnectedError(
        `Cannot ${action}: MCP server "${serverName}" is being reconnected after its connection was lost; try again shortly (tool calls wait for it).`,
        { serverName },
      );
    }
    return new MCPNotConnectedError(
      `Cannot ${action}: not connected to MCP server "${serverName}". Call connect() first (or reconnect() after the connection dropped).`,
      { serverName },
    );
  }

  /**
   * One request on `session` (what the features' contexts and tool listing call), settled when the
   * session drops; with its client span and duration when telemetry observes: the list pages, prompts,
   * resources, completions and the log level (tool calls have their own span, around the whole
   * call). The span's trace context goes to the server in `params._meta`, as a call's does.
   */
  readonly tracedRequest = (
    session: Session,
    request: MCPEngineMessage,
    options: MCPEngineRequestOptions = {},
    signal?: AbortSignal,
  ): Promise<unknown> => {
    const { instrumentation, now } = this.#context;
    if (instrumentation?.observed !== true) return session.request(request, options, signal);
    return sendTraced({ instrumentation, now }, { session, request, options, signal });
  };

  /**
   * One automatic recovery attempt (queued like connect): a new session, then the features restore
   * what the host had (the tools listed again, every registered namespace replaced at once).
   * Resource subscriptions and the log level are sent again by the session's opening.
   */
  async #recover(signal: AbortSignal): Promise<void> {
    if (signal.aborted) throw new Error("recovery was stopped: the host connected or disconnected");
    if (this.#session !== undefined) return;
    await this.#open(this.#context.connectTimeoutMs, "reconnect");
    // Read through a call: the session changes while this awaits.
    const session = this.#live();
    if (session === undefined) throw new Error("the new connection closed at once");
    for (const hooks of this.#hooks) await hooks.recovered?.(session);
    if (this.#live() !== session) throw new Error("the new connection closed while its tools were listed");
  }

  #live(): Session | undefined {
    return this.#session;
  }

  async #open(timeoutMs: number, operation: "connect" | "reconnect"): Promise<void> {
    if (this.#session !== undefined) return;
    const { config, engine, instrumentation, redactor, now, closeTimeoutMs, logger } = this.#context;
    const serverName = config.name;
    if (this.#options.transport === undefined && isBuiltInEngine(engine)) {
      throw new MCPConfigError(
        `MCP server "${serverName}" has no transport: pass { transport } (an SDK Transport or a factory) to the MCPToolAdapter constructor, or use the "mcp-tool-adapter" package, whose MCPToolAdapter builds ${config.transport} transports from the config.`,
        [{ path: "/transport", message: "no transport was given to the adapter" }],
      );
    }
    const loadingTelemetry = instrumentation?.ready();
    if (loadingTelemetry !== undefined) await loadingTelemetry;
    const deadline = new Deadline(timeoutMs);
    const started = now();
    const traced = instrumentation?.start("initialize");
    // Notifications during the handshake find no session yet; the ones that need it wait for discovery.
    const opened: { session?: Session } = {};
    const connecting = engine.connect({
      server: config,
      ...(this.#options.authProvider === undefined ? {} : { authProvider: this.#options.authProvider }),
      clientInfo: this.#context.clientInfo,
      capabilities: this.#context.offers.capabilities(),
      requestHandlers: this.#context.offers.requestHandlers(),
      listeners: {
        notification: (message) => {
          this.routes.route(message, opened.session);
        },
        closed: () => {
          if (opened.session !== undefined) this.#dropped(opened.session);
        },
        error: (error) => {
          logger?.debug?.(`MCP server "${serverName}" transport error: ${describeCause(error)}`, { error });
        },
      },
      timeoutMs,
      signal: deadline.signal,
    });
    let connection: MCPEngineConnection;
    try {
      connection = await deadline.race(connecting, (late) => void closeQuietly(late, closeTimeoutMs));
    } catch (error) {
      deadline.clear();
      // The engine closes what it started once its signal fired; the failure is reported after that.
      if (deadline.expired) await settledWithin(connecting, closeTimeoutMs);
      const why = deadline.expired ? `timed out after ${timeoutMs} ms` : describeTransportFailure(error);
      const failed = new MCPConnectionError(
        redactor.text(
          `${operation === "reconnect" ? "Reconnect failed: c" : "C"}ould not establish a connection to MCP server "${serverName}" over ${config.transport}: ${withoutFullStop(why)}. Check that the server can start (or is reachable) and try again.`,
        ),
        { serverName, transportType: config.transport, cause: redactor.value(error) },
      );
      if (traced !== undefined)
        instrumentation?.end(traced, now() - started, {
          errorType: deadline.expired ? "timeout" : "connection_failed",
          message: failed.message,
        });
      throw failed;
    }
    deadline.clear();
    if (traced !== undefined) instrumentation?.end(traced, now() - started);
    const session = new Session(connection, this.#requestFailed);
    opened.session = session;
    this.#session = session;
    this.#openedAt = now();
    for (const hooks of this.#hooks) hooks.opened?.(session);
    logger?.debug?.(`Connected to MCP server "${serverName}" over ${config.transport}`);
  }

  async #close(why: string): Promise<void> {
    const session = this.#session;
    if (session === undefined) return;
    this.#session = undefined;
    this.#sessionEnded(session);
    session.close(why);
    try {
      await closeOnPurpose(session.connection, this.#context.closeTimeoutMs);
    } catch (error) {
      this.#context.logger?.warn?.(
        `Closing the connection to MCP server "${this.#context.config.name}" failed; it is disconnected anyway: ${describeCause(error)}`,
        { error },
      );
    }
  }

  /**
   * The connection went away without our disconnect: the transport closed (the server exited or
   * dropped the socket), or a send failed because it is gone (noticed before the transport closes).
   */
  #dropped(session: Session, why = "the server closed the connection", immediate = false): void {
    if (session.state !== "open") return;
    session.state = "closed";
    const current = this.#session === session;
    if (current) {
      this.#session = undefined;
      this.#sessionEnded(session, SESSION_ERROR_CONNECTION_LOST);
    }
    // Before the calls in flight settle, so that they find recovery already under way.
    if (current) this.supervisor.connectionLost(why, immediate);
    session.close(why);
    this.#context.logger?.warn?.(
      `MCP server "${this.#context.config.name}" connection lost (${why}); ${this.#context.recovery === undefined ? "call reconnect() to continue" : "recovering"}`,
    );
    // The transport says it closed; close it again anyway so a half-dead process or socket is reaped.
    // Without ending the server's session (no DELETE): the connection was lost, not closed on
    // purpose, so the server is gone or unreachable, or said it no longer knows the session.
    void closeQuietly(session.connection, this.#context.closeTimeoutMs);
  }

  /** `mcp.client.session.duration` of the current session, ending now; `errorType` when it was lost. */
  #sessionEnded(session: Session, errorType?: string): void {
    const { instrumentation, now } = this.#context;
    instrumentation?.sessionEnded(now() - this.#openedAt, session.connection.protocolVersion, errorType);
  }

  /** A request on `session` failed: drops the session when the failure says it is gone; returns the error to throw. */
  #failed(session: Session, error: unknown): Error {
    // A send to a dead server fails before the transport reports the close: stop using it now.
    if (isConnectionGone(error)) this.#dropped(session, `the transport failed: ${describeTransportFailure(error)}`);
    // The spec: a 404 for our session id means the session is gone; start a new one.
    else if (this.#context.recovery !== undefined && isSessionExpired(error, session.connection))
      this.#dropped(session, "the server no longer knows the session (HTTP 404)", true);
    return error instanceof Error ? error : new Error(describeCause(error));
  }
}

/** Waits for `promise` to settle, at most `ms`; never rejects. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  try {
    await withTimeout(promise, ms, "connect");
  } catch {
    // Only waiting for the engine to clean up; its failure is already being reported.
  }
}
