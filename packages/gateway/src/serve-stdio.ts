import { BatchedStdioServerTransport } from "./batched-stdio-transport.js";
import type { Gateway, GatewayConnection } from "./gateway.js";

/** The gateway serving the one client on this process's stdin/stdout (a host's `mcpServers` entry). */
export interface StdioGateway {
  readonly connection: GatewayConnection;
  /** Resolves when the client closes stdin (or close() is called). */
  readonly closed: Promise<void>;
}

export async function serveStdio(
  gateway: Gateway,
  streams: { stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream } = {},
): Promise<StdioGateway> {
  const transport = new BatchedStdioServerTransport(
    (streams.stdin ?? process.stdin) as typeof process.stdin,
    (streams.stdout ?? process.stdout) as typeof process.stdout,
  );
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    (streams.stdin ?? process.stdin).once("end", () => resolve());
  });
  const connection = await gateway.connect(transport);
  return { connection, closed };
}
