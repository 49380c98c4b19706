import type { MCPServerSet, ServerSetConnectReport } from "mcp-tool-adapter";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { describeCause } from "@mcp-tool-adapter/core";
import { GatewayError } from "./errors.js";
import type { Gateway, GatewayConnection, GatewayOptions, GatewayStreamConnection } from "./gateway.js";

/** How the per-client gateway makes a gateway: `createGateway` with per-client connections off. */
export type SharedGatewayFactory = (options: GatewayOptions) => Gateway;

/**
 * `upstreamPerClient`: every downstream 2025-era session is served by a gateway of its own, whose
 * upstream connections (stdio processes, HTTP sessions) exist for that session alone, so an
 * upstream's request always belongs to that one client and its roots are that client's. The shared
 * gateway still serves the 2026-07-28 stateless requests, which keep no client state.
 */
export class PerClientGateway implements Gateway {
  readonly #shared: Gateway;
  readonly #own = new Set<Gateway>();
  readonly #options: GatewayOptions;
  readonly #maxSessions: number;
  readonly #create: SharedGatewayFactory;
  #closed = false;

  constructor(options: { options: GatewayOptions; maxSessions: number; create: SharedGatewayFactory }) {
    this.#options = options.options;
    this.#maxSessions = options.maxSessions;
    this.#create = options.create;
    this.#shared = options.create(options.options);
  }

  get serverSet(): MCPServerSet {
    return this.#shared.serverSet;
  }

  get connectionCount(): number {
    let count = this.#shared.connectionCount;
    for (const gateway of this.#own) count += gateway.connectionCount;
    return count;
  }

  start(): Promise<ServerSetConnectReport> {
    return this.#shared.start();
  }

  async connect(transport: Transport): Promise<GatewayConnection> {
    if (this.#closed) throw new GatewayError("BAD_REQUEST", "The gateway is closed: it accepts no new session.");
    if (this.#own.size >= this.#maxSessions) {
      throw new GatewayError(
        "TOO_MANY_SESSIONS",
        `The gateway already serves ${this.#maxSessions} sessions, each with its own upstream connections (upstreamPerClient.maxSessions); close a session or try again later.`,
      );
    }
    // Counted before the upstreams connect, so sessions initializing at once stay within the limit.
    const own = this.#create(this.#options);
    this.#own.add(own);
    let released = false;
    const release = async (): Promise<void> => {
      if (released) return;
      released = true;
      this.#own.delete(own);
      await own.close();
    };
    try {
      const report = await own.start();
      if (report.failed.length > 0) {
        this.#options.logger?.warn?.(
          `gateway: a session's own connections to ${report.failed.join(", ")} failed; it is served without them`,
        );
      }
      // The SDK server keeps an onclose set before it connects and calls it when the session ends.
      const previous = transport.onclose;
      transport.onclose = () => {
        previous?.();
        void release();
      };
      const connection = await own.connect(transport);
      return {
        id: connection.id,
        close: async () => {
          await connection.close();
          await release();
        },
      };
    } catch (error) {
      await release().catch(() => undefined);
      throw error;
    }
  }

  /**
   * A stream connection is the one client of this process (`serve` over stdio), so the shared
   * gateway's upstream connections are already that client's alone.
   */
  serveConnection(transport: Transport): GatewayStreamConnection {
    return this.#shared.serveConnection(transport);
  }

  serveStateless(request: Request, parsedBody?: unknown): Promise<Response> {
    return this.#shared.serveStateless(request, parsedBody);
  }

  async close(): Promise<void> {
    this.#closed = true;
    const own = [...this.#own];
    this.#own.clear();
    await Promise.all(
      own.map((gateway) =>
        gateway.close().catch((error: unknown) => {
          this.#options.logger?.warn?.(
            `gateway: closing a session's upstream connections failed: ${describeCause(error)}`,
          );
        }),
      ),
    );
    await this.#shared.close();
  }
}
