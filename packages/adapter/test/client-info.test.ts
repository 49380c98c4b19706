import { readFileSync } from "node:fs";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { createInMemoryTestServer } from "@mcp-tool-adapter/test-servers";
import { afterEach, describe, expect, it } from "vitest";
import { MCPToolAdapter } from "../src/index.js";
import { BUILT_IN_ENGINES, STDIO_CONFIG } from "./helpers.js";

const packageVersion = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;

const adapters: MCPToolAdapter[] = [];
afterEach(async () => {
  await Promise.all(adapters.splice(0).map((adapter) => adapter.disconnect()));
});

/** Connects an adapter to an in-process server and returns the clientInfo its initialize request carried. */
async function sentClientInfo(options: ConstructorParameters<typeof MCPToolAdapter>[1] = {}): Promise<unknown> {
  const server = createInMemoryTestServer();
  const sent: JSONRPCMessage[] = [];
  const adapter = new MCPToolAdapter(STDIO_CONFIG, {
    ...options,
    transport: async () => {
      const transport = await server.connect();
      const send = transport.send.bind(transport);
      transport.send = (message, sendOptions) => {
        sent.push(message);
        return send(message, sendOptions);
      };
      return transport;
    },
  });
  adapters.push(adapter);
  await adapter.connect();
  const initialize = sent.find((message) => "method" in message && message.method === "initialize");
  return (initialize as { params?: { clientInfo?: unknown } } | undefined)?.params?.clientInfo;
}

describe("clientInfo", () => {
  it.each(BUILT_IN_ENGINES)(
    "is the adapter's name and its package's version by default (engine $engine)",
    async ({ engine }) => {
      expect(packageVersion).toMatch(/^\d+\.\d+\.\d+/);
      expect(await sentClientInfo(engine === undefined ? {} : { engine })).toEqual({
        name: "mcp-tool-adapter",
        version: packageVersion,
      });
    },
  );

  it("is the caller's when given", async () => {
    expect(await sentClientInfo({ clientInfo: { name: "my-agent", version: "2.3.4" } })).toEqual({
      name: "my-agent",
      version: "2.3.4",
    });
  });
});
