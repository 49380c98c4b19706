import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { BenchClient, ServerTarget } from "./bench-client.js";

/** Lists every tool through the SDK Client's paginated `listTools`, as an SDK user would. */
export async function listAllToolsRaw(client: Client): Promise<number> {
  let count = 0;
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    count += page.tools.length;
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return count;
}

/** The SDK's own transport for a target, configured the way its docs show. */
export function createRawTransport(target: ServerTarget): Transport {
  if (target.kind === "stdio") {
    // "ignore": server logs must not reach the bench's output; the adapter keeps only a bounded tail.
    return new StdioClientTransport({
      command: target.command,
      args: [...target.args],
      stderr: "ignore",
      ...(target.env === undefined ? {} : { env: { ...target.env } }),
    });
  }
  return new StreamableHTTPClientTransport(new URL(target.url));
}

/** The baseline: `@modelcontextprotocol/sdk`'s Client used directly, with nothing of ours. */
export function createRawClient(target: ServerTarget | (() => Promise<Transport>)): BenchClient {
  let client: Client | undefined;
  const connected = (): Client => {
    if (client === undefined) throw new Error("raw SDK client: connect() first");
    return client;
  };
  return {
    side: "raw",
    async connect() {
      const next = new Client({ name: "bench-raw-sdk", version: "0.0.0" }, { capabilities: {} });
      await next.connect(typeof target === "function" ? await target() : createRawTransport(target));
      client = next;
    },
    discover: () => listAllToolsRaw(connected()),
    async call(tool, args) {
      const result = await connected().callTool({ name: tool, arguments: args });
      if (result.isError === true) throw new Error(`raw SDK client: tool "${tool}" returned an error result`);
    },
    async close() {
      const current = client;
      client = undefined;
      await current?.close();
    },
  };
}
