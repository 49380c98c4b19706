import type { Side } from "../interleave.js";

/** Where a client connects: a stdio server it launches, or a streamable-http endpoint. */
export type ServerTarget =
  | {
      readonly kind: "stdio";
      readonly command: string;
      readonly args: readonly string[];
      /** Set on top of the client's default server environment (e.g. the leak-check marker). */
      readonly env?: Readonly<Record<string, string>>;
    }
  | { readonly kind: "streamable-http"; readonly url: string };

/**
 * The few operations the comparison measures, implemented once over the adapter's public API
 * and once over the raw SDK Client, so both sides run the exact same scenario code.
 */
export interface BenchClient {
  readonly side: Side;
  /** Starts the transport and completes the MCP handshake. */
  connect(): Promise<void>;
  /** Lists every tool, following pagination; resolves with how many there are. */
  discover(): Promise<number>;
  /** Calls a tool and rejects when the call did not succeed, so a broken run cannot look fast. */
  call(tool: string, args: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}
