import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCPToolAdapter } from "@mcp-tool-adapter/adapter";
import { createEngine2026 } from "@mcp-tool-adapter/engine-2026";
import { createTempDirectory, v2StdioServerConfig, type TempDirectory } from "@mcp-tool-adapter/test-servers";
import { Client } from "@modelcontextprotocol/client";
import { CLI_BIN, servedOverHttpForFile } from "./fixtures.js";
import { gatewayEndpoints, SERVE_CONNECT_TIMEOUT_MS } from "./gateway-endpoints.js";
import { callToolByHand, questionOf } from "./modern-by-hand.js";

// A 2026-07-28 client's roots passed up. The upstream is the official v2 SDK's server over a real
// stdio pipe, spoken to in the 2025 era: its `roots` tool asks the client for its roots
// (`roots/list`) during the call. The gateway asks the 2026-07-28 client whose call runs (an
// input_required holding a roots request) and answers the upstream with that client's roots: the
// v2 client and our adapter on engine-2026, over HTTP and over stdio (`mcp-tool-adapter serve`).
const UPSTREAM = v2StdioServerConfig();
const running = servedOverHttpForFile(() => ({ servers: { v2: { transport: "stdio", ...UPSTREAM } } }));
let directory: TempDirectory;
let configFile: string;

beforeAll(async () => {
  directory = await createTempDirectory("gateway-roots-");
  configFile = join(directory.path, "mcp.json");
  await writeFile(configFile, JSON.stringify({ mcpServers: { v2: UPSTREAM } }));
}, 60_000);

afterAll(async () => {
  await directory.remove();
}, 60_000);

const { v2Transports: transports, adapterConfigs } = gatewayEndpoints(
  () => running.http.url,
  () => [CLI_BIN, "serve", "--config", configFile],
);

function v2Client(roots: { uri: string; name?: string }[] | undefined): Client {
  const client = new Client(
    { name: "v2-roots", version: "1.0.0" },
    {
      versionNegotiation: { mode: { pin: "2026-07-28" } },
      capabilities: roots === undefined ? {} : { roots: {} },
    },
  );
  if (roots !== undefined) client.setRequestHandler("roots/list", () => ({ roots }));
  return client;
}

describe.each(transports)("the v2 client on 2026-07-28 over $label", ({ make }) => {
  it("is asked for its roots when the upstream asks during its call", { timeout: 120_000 }, async () => {
    const client = v2Client([{ uri: "file:///work/client-a", name: "a" }]);
    await client.connect(make());
    try {
      expect(client.getProtocolEra()).toBe("modern");
      const result = await client.callTool({ name: "roots", arguments: {} });
      expect(result.isError).not.toBe(true);
      expect(result.content).toEqual([{ type: "text", text: "roots: file:///work/client-a" }]);
    } finally {
      await client.close();
    }
  });

  it("without the roots capability, the upstream gets the shared list (empty here)", { timeout: 120_000 }, async () => {
    const client = v2Client(undefined);
    await client.connect(make());
    try {
      const result = await client.callTool({ name: "roots", arguments: {} });
      expect(result.isError).not.toBe(true);
      expect(result.content).toEqual([{ type: "text", text: "roots: " }]);
    } finally {
      await client.close();
    }
  });
});

describe("our adapter on engine-2026", () => {
  it.each(adapterConfigs)("passes its roots up over $label", { timeout: 120_000 }, async ({ config }) => {
    const adapter = new MCPToolAdapter(
      { name: "gateway", protocol: "2026-07-28", ...config() },
      {
        engine: createEngine2026(),
        connectTimeoutMs: SERVE_CONNECT_TIMEOUT_MS,
        roots: [{ uri: "file:///work/adapter-b", name: "b" }],
      },
    );
    await adapter.connect();
    try {
      expect(adapter.protocolEra).toBe("2026-07-28");
      const result = await adapter.invoke("roots", {});
      expect(result.success, result.error ?? "").toBe(true);
      expect(result.data?.content).toEqual([{ type: "text", text: "roots: file:///work/adapter-b" }]);
    } finally {
      await adapter.disconnect();
    }
  });
});

describe("a roots answer by hand", () => {
  it(
    "that is not a list of file:// roots is refused, and the call waits for a good one",
    { timeout: 60_000 },
    async () => {
      const asked = questionOf(
        await callToolByHand({ url: running.http.url, name: "roots", capabilities: { roots: {} } }),
      );
      const retry = (roots: unknown): ReturnType<typeof callToolByHand> =>
        callToolByHand({
          url: running.http.url,
          name: "roots",
          capabilities: { roots: {} },
          extra: { requestState: asked.state, inputResponses: { [asked.key]: { roots } } },
        });
      const wrong = await retry([{ uri: "https://example.com/not-a-folder" }]);
      expect(wrong.error?.code).toBe(-32602);
      expect(wrong.error?.data?.code).toBe("INPUT_RESPONSE_INVALID");
      expect(wrong.error?.message).toContain("file://");
      const right = await retry([{ uri: "file:///by/hand" }]);
      expect(right.error).toBeUndefined();
      expect(JSON.stringify(right.result)).toContain("roots: file:///by/hand");
    },
  );
});
