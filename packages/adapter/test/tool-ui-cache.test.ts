import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MCPToolAdapter } from "../src/index.js";

// The UI cache follows the server: an in-process server replaces its tool's UI, then says so with
// notifications/resources/list_changed, or notifications/resources/updated for a subscribed URI.
const UI_URI = "ui://board/app.html";
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of cleanups.splice(0).reverse()) await close();
});

async function boardServer() {
  let version = "v1";
  const subscribed: string[] = [];
  const server = new McpServer(
    { name: "board", version: "1.0.0" },
    { capabilities: { resources: { subscribe: true, listChanged: true } } },
  );
  server.registerTool("show", { description: "Shows the board", _meta: { ui: { resourceUri: UI_URI } } }, () => ({
    content: [{ type: "text", text: "shown" }],
  }));
  server.registerResource("board", UI_URI, { mimeType: "text/html;profile=mcp-app" }, () => ({
    contents: [{ uri: UI_URI, mimeType: "text/html;profile=mcp-app", text: `<html><body>${version}</body></html>` }],
  }));
  server.server.setRequestHandler(SubscribeRequestSchema, (request) => {
    subscribed.push(request.params.uri);
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, () => ({}));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const adapter = new MCPToolAdapter(
    { name: "board", transport: "stdio", command: "unused" },
    { transport: () => clientSide },
  );
  cleanups.push(() => server.close());
  cleanups.push(() => adapter.disconnect());
  await adapter.connect();
  await adapter.discoverTools();
  return {
    adapter,
    server,
    subscribed,
    replaceUi(next: string) {
      version = next;
    },
  };
}

const shownVersion = async (adapter: MCPToolAdapter) => (await adapter.readToolUi("show")).data?.html;

describe("the tool UI cache", { timeout: 30_000 }, () => {
  it("keeps a UI until the server's resource list changes, then reads it again", async () => {
    const { adapter, server, replaceUi } = await boardServer();
    const reads = vi.spyOn(adapter, "readResource");
    expect(await shownVersion(adapter)).toContain("v1");
    replaceUi("v2");
    expect(await shownVersion(adapter)).toContain("v1");
    expect(reads).toHaveBeenCalledTimes(1);

    server.sendResourceListChanged();
    await expect.poll(() => shownVersion(adapter), { timeout: 10_000 }).toContain("v2");
    expect(reads).toHaveBeenCalledTimes(2);
    expect(await shownVersion(adapter)).toContain("v2");
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it("reads a subscribed UI again after its resources/updated", async () => {
    const { adapter, server, subscribed, replaceUi } = await boardServer();
    const updates: string[] = [];
    const subscription = await adapter.subscribeResource(UI_URI, (event) => updates.push(event.uri));
    expect(subscription.success).toBe(true);
    expect(subscribed).toEqual([UI_URI]);
    const reads = vi.spyOn(adapter, "readResource");
    expect(await shownVersion(adapter)).toContain("v1");
    replaceUi("v3");

    await server.server.sendResourceUpdated({ uri: "ui://board/other.html" });
    await server.server.sendResourceUpdated({ uri: UI_URI });
    await expect.poll(() => updates, { timeout: 10_000 }).toEqual([UI_URI]);
    expect(await shownVersion(adapter)).toContain("v3");
    expect(reads).toHaveBeenCalledTimes(2);
  });
});
