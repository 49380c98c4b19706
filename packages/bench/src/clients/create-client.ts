import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Side } from "../interleave.js";
import { createAdapterClient } from "./adapter-client.js";
import type { BenchClient, ServerTarget } from "./bench-client.js";
import { createRawClient } from "./raw-client.js";

export function createBenchClient(side: Side, target: ServerTarget | (() => Promise<Transport>)): BenchClient {
  return side === "adapter" ? createAdapterClient(target) : createRawClient(target);
}
