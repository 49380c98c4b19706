import { randomUUID } from "node:crypto";
import type { Logger } from "mcp-tool-adapter";
import { GatewayError } from "./errors.js";
import type { Gateway, GatewayConnection } from "./gateway.js";
import { createHttpSessionTransport, type HttpSessionTransport } from "./http-session-transport.js";

/** A 2025-era HTTP session: its transport, and the gateway's connection serving it. */
export interface HttpSession {
  readonly transport: HttpSessionTransport;
  readonly connection: GatewayConnection;
}

export interface HttpSessionTableOptions {
  readonly gateway: Gateway;
  /** Starts every session id (`<prefix>-<uuid>`) so a load balancer can route by it. */
  readonly sessionIdPrefix?: string | undefined;
  /** Default: the event-stream module's KEEP_ALIVE_MS. */
  readonly keepAliveMs?: number | undefined;
  readonly logger?: Logger | undefined;
}

/** The sessions one listener serves, by `Mcp-Session-Id`. */
export interface HttpSessionTable {
  /** Opens a session (the gateway may refuse it: TOO_MANY_SESSIONS); it leaves the table when it ends. */
  open(): Promise<HttpSession>;
  /** The session with this id, or a SESSION_UNKNOWN GatewayError. */
  get(id: string): HttpSession;
  /** Closes every session's gateway connection (and so its transport). */
  closeAll(): Promise<void>;
}

export function createHttpSessionTable(options: HttpSessionTableOptions): HttpSessionTable {
  return new SessionTable(options);
}

class SessionTable implements HttpSessionTable {
  readonly #options: HttpSessionTableOptions;
  readonly #sessions = new Map<string, HttpSession>();
  readonly #newId: () => string;

  constructor(options: HttpSessionTableOptions) {
    this.#options = options;
    const prefix = options.sessionIdPrefix;
    if (prefix !== undefined && !/^[A-Za-z0-9_]{1,32}$/.test(prefix)) {
      throw new GatewayError(
        "GATEWAY_OPTIONS_INVALID",
        `sessionIdPrefix ${JSON.stringify(prefix)} is not allowed: use 1-32 of A-Z, a-z, 0-9 and "_" (it starts every Mcp-Session-Id).`,
      );
    }
    this.#newId = prefix === undefined ? () => randomUUID() : () => `${prefix}-${randomUUID()}`;
  }

  async open(): Promise<HttpSession> {
    const id = this.#newId();
    const transport = createHttpSessionTransport({
      sessionId: id,
      keepAliveMs: this.#options.keepAliveMs,
      onClosed: () => {
        this.#sessions.delete(id);
      },
    });
    const connection = await this.#options.gateway.connect(transport);
    const session: HttpSession = { transport, connection };
    this.#sessions.set(id, session);
    this.#options.logger?.info?.(`gateway: HTTP session ${id} opened`);
    return session;
  }

  get(id: string): HttpSession {
    const session = this.#sessions.get(id);
    if (session === undefined) {
      throw new GatewayError(
        "SESSION_UNKNOWN",
        `Session "${id}" is not known here (expired, closed, or opened on another gateway): initialize again.`,
      );
    }
    return session;
  }

  async closeAll(): Promise<void> {
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.all(sessions.map((session) => session.connection.close().catch(() => undefined)));
  }
}
