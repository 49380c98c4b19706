import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { fingerprintTool, type PinnedToolDefinition } from "@mcp-tool-adapter/adapter";
import type { ToolLock } from "mcp-tool-adapter";
import type { GatewayError } from "../src/index.js";
import { createGateway, WITHHELD_META_KEY, type Gateway, type WithheldTool } from "../src/index.js";
import { realUpstreams, type Upstreams } from "./fixtures.js";

// The policy in front of the upstream servers, seen by an SDK 1.x Client over an in-memory pair:
// a drifted tool withheld with its reason in the tool list's _meta, a tool filter, single-server mode.
let upstreams: Upstreams;
const open: Gateway[] = [];

beforeAll(async () => {
  upstreams = await realUpstreams(["everything", "memory"]);
}, 60_000);

afterAll(async () => {
  await Promise.all(open.map((gateway) => gateway.close()));
  await upstreams.remove();
}, 60_000);

async function serve(gateway: Gateway): Promise<Client> {
  open.push(gateway);
  await gateway.start();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await gateway.connect(serverSide);
  const client = new Client({ name: "policy-test", version: "1" });
  await client.connect(clientSide);
  return client;
}

describe("pinning", () => {
  it(
    "withholds a drifted tool and names it with the reason in the tool list's _meta",
    { timeout: 90_000 },
    async () => {
      // Pin everything's tools as they are, then make echo's pin disagree with what the server lists.
      const pinner = createGateway({ servers: { everything: upstreams.servers.everything! } });
      open.push(pinner);
      await pinner.start();
      const pins: Record<string, PinnedToolDefinition> = {};
      for (const tool of pinner.serverSet.getAdapter("everything")?.discoveredTools ?? [])
        pins[tool.name] = await fingerprintTool(tool);
      const echo = pins.echo as PinnedToolDefinition;
      pins.echo = {
        ...echo,
        fingerprint: `sha256:${"0".repeat(64)}`,
        parts: { ...echo.parts, description: `sha256:${"1".repeat(64)}` },
      };
      const lock: ToolLock = { lockfileVersion: 1, servers: { everything: { tools: pins } } };

      const client = await serve(
        createGateway({ servers: { everything: upstreams.servers.everything! }, serverSet: { pinning: { lock } } }),
      );
      const listed = await client.listTools();
      const names = listed.tools.map((tool) => tool.name);
      expect(names).not.toContain("echo");
      expect(names).toContain("get-sum");
      const withheld = listed._meta?.[WITHHELD_META_KEY] as WithheldTool[] | undefined;
      expect(withheld).toEqual([expect.objectContaining({ server: "everything", tool: "echo", status: "changed" })]);
      expect(withheld?.[0]?.reason).toMatch(/description/);
      await expect(client.callTool({ name: "echo", arguments: { message: "x" } })).rejects.toThrow(
        /Unknown tool "echo"/,
      );
      await client.close();
    },
  );
});

describe("what is exposed", () => {
  it("hides the tools a filter rejects (the toolsets' hook)", { timeout: 90_000 }, async () => {
    const client = await serve(
      createGateway({
        servers: upstreams.servers,
        toolFilter: (tool) => tool.server === "memory" && tool.capabilities.readOnly,
      }),
    );
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain("memory__read_graph");
    expect(names).not.toContain("memory__create_entities");
    expect(names.some((name) => name.startsWith("everything__"))).toBe(false);
    await client.close();
  });

  it("keeps the upstream names without a prefix in single-server mode", { timeout: 90_000 }, async () => {
    const client = await serve(createGateway({ servers: { memory: upstreams.servers.memory! } }));
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain("read_graph");
    expect(names.some((name) => name.includes("__"))).toBe(false);
    await client.close();
  });

  it("refuses single-server mode with more than one server", () => {
    expect(() => createGateway({ servers: upstreams.servers, singleServer: true })).toThrow(
      expect.objectContaining({ code: "GATEWAY_OPTIONS_INVALID" }) as GatewayError,
    );
  });
});
