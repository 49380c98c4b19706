import { BatchedStdioServerTransport } from "./batched-stdio-transport.js";
import type { Gateway, GatewayStreamConnection } from "./gateway.js";
import { noteWireEnd } from "./session-end.js";
import { ensureServeStdioContract } from "./v2-serve-stdio-contract.js";

/**
 * The gateway serving the one client on this process's stdin/stdout (a host's `mcpServers` entry),
 * in the era that client opens with (2025 sessions or 2026-07-28).
 */
export interface StdioGateway {
  readonly connection: GatewayStreamConnection;
  /** Resolves when the client ends stdin, stdin fails or closes, or the connection is closed. */
  readonly closed: Promise<void>;
}

export async function serveStdio(
  gateway: Gateway,
  streams: { stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream } = {},
): Promise<StdioGateway> {
  // Fails with SDK_INCOMPATIBLE, before reading stdin, when the v2 SDK no longer serves as expected.
  await ensureServeStdioContract();
  const stdin = streams.stdin ?? process.stdin;
  const transport = new BatchedStdioServerTransport(
    stdin as typeof process.stdin,
    (streams.stdout ?? process.stdout) as typeof process.stdout,
  );
  const connection = gateway.serveConnection(transport);
  // How the client left, for the session's duration (session-end.ts): it ended stdin, or stdin
  // failed or was closed without an end. Each of them ends the session, so `closed` settles on any
  // (a stdin that failed never emits "end": waiting for it alone would keep `serve` up for ever).
  const ended = new Promise<void>((resolve) => {
    stdin.once("end", () => {
      noteWireEnd(transport, "stream-ended");
      resolve();
    });
    stdin.once("error", () => {
      noteWireEnd(transport, "lost");
      resolve();
    });
    stdin.once("close", () => {
      noteWireEnd(transport, "lost"); // after "end" the first note stands
      resolve();
    });
  });
  const closed = Promise.race([connection.closed, ended]);
  return { connection, closed };
}
