import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Side } from "../interleave.js";
import type { BenchClient, ServerTarget } from "./bench-client.js";

export type BenchClientFactory = (target: ServerTarget | (() => Promise<Transport>)) => BenchClient;

/**
 * One side's client factory. Only that side's module is loaded, so a worker measuring one
 * library never runs the other's code (V8 would share type feedback between them).
 */
export async function loadBenchClientFactory(side: Side): Promise<BenchClientFactory> {
  return side === "adapter"
    ? (await import("./adapter-client.js")).createAdapterClient
    : (await import("./raw-client.js")).createRawClient;
}
