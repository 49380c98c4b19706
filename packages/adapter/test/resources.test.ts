import { describe, expect, it } from "vitest";
import {
  MCPDiscoveryError,
  MCPNotConnectedError,
  MCPUsageError,
  type ResourcesChangedEvent,
  type ResourceUpdatedEvent,
} from "../src/index.js";
import { connectedHarness, createHarness, waitFor } from "./helpers.js";

const resources = (count: number) => Array.from({ length: count }, (_, i) => ({ uri: `test://r/${i}`, name: `r${i}` }));

describe("resources", () => {
  it("lists every resource over all pages, and the templates", async () => {
    const { adapter } = await connectedHarness({
      resources: resources(7),
      resourceTemplates: [{ uriTemplate: "test://t/{id}", name: "by id" }],
      pageSize: 3,
    });
    const listed = await adapter.listResources();
    expect(listed.map((r) => r.uri)).toEqual(resources(7).map((r) => r.uri));
    expect(Object.isFrozen(listed[0])).toBe(true);
    expect(await adapter.listResourceTemplates()).toEqual([{ uriTemplate: "test://t/{id}", name: "by id" }]);
  });

  it("returns no resources from a server without the resources capability", async () => {
    const { adapter } = await connectedHarness({});
    expect(await adapter.listResources()).toEqual([]);
    expect(await adapter.listResourceTemplates()).toEqual([]);
    const read = await adapter.readResource("test://x");
    expect(read).toMatchObject({ success: false, errorKind: "not_supported" });
    expect(read.error).toContain('"resources" capability');
  });

  it("stops a listing whose pagination never ends (maxListPages) or repeats a cursor", async () => {
    const { adapter } = await connectedHarness({ resources: resources(10), pageSize: 1 }, { maxListPages: 4 });
    await expect(adapter.listResources()).rejects.toThrow(MCPDiscoveryError);
    await expect(adapter.listResources()).rejects.toThrow(/after 4 pages of resources\/list/);
  });

  it("reads text and blob contents", async () => {
    const { adapter } = await connectedHarness({
      resources: [
        { uri: "test://text", name: "text", mimeType: "text/plain", text: "hello" },
        {
          uri: "test://blob",
          name: "blob",
          mimeType: "application/octet-stream",
          blob: Buffer.from("bytes").toString("base64"),
        },
      ],
    });
    const text = await adapter.readResource("test://text");
    expect(text).toMatchObject({
      success: true,
      error: null,
      data: { contents: [{ uri: "test://text", mimeType: "text/plain", text: "hello" }] },
    });
    const blob = await adapter.readResource("test://blob");
    expect(blob.success).toBe(true);
    const item = blob.data?.contents[0] as { blob: string };
    expect(Buffer.from(item.blob, "base64").toString()).toBe("bytes");
  });

  it("classifies a missing resource, a bad URI and an unusable answer", async () => {
    const { adapter } = await connectedHarness({
      resources: [{ uri: "test://odd", name: "odd", read: () => ({ contents: [{ uri: "test://odd" }] }) }],
    });
    expect(await adapter.readResource("test://nope")).toMatchObject({ success: false, errorKind: "not_found" });
    expect(await adapter.readResource("")).toMatchObject({ success: false, errorKind: "validation" });
    const odd = await adapter.readResource("test://odd");
    expect(odd).toMatchObject({ success: false, errorKind: "server_error" });
    expect(odd.error).toContain('neither "text" nor "blob"');
  });

  it("refuses a 50 MB resource with maxResultBytes", async () => {
    const huge = "x".repeat(50 * 1024 * 1024);
    const { adapter } = await connectedHarness(
      { resources: [{ uri: "test://huge", name: "huge", text: huge }] },
      { maxResultBytes: 1024 * 1024 },
    );
    const result = await adapter.readResource("test://huge");
    expect(result).toMatchObject({ success: false, data: null, errorKind: "result_too_large" });
    expect(result.error).toContain("1048576 bytes");
  });

  it("times out and cancels reads", async () => {
    const { adapter } = await connectedHarness({
      resources: [{ uri: "test://slow", name: "slow", read: () => new Promise(() => undefined) }],
    });
    expect(await adapter.readResource("test://slow", { timeoutMs: 30 })).toMatchObject({
      success: false,
      errorKind: "timeout",
    });
    const controller = new AbortController();
    const pending = adapter.readResource("test://slow", { signal: controller.signal });
    controller.abort();
    expect(await pending).toMatchObject({ success: false, errorKind: "cancelled" });
  });

  it("throws MCPNotConnectedError when not connected", async () => {
    const { adapter } = createHarness({ resources: resources(1) });
    await expect(adapter.listResources()).rejects.toThrow(MCPNotConnectedError);
    expect(() => adapter.readResource("test://r/0")).toThrow(MCPNotConnectedError);
  });

  it("subscribes, delivers updates for that URI only, and unsubscribes", async () => {
    const { adapter, server } = await connectedHarness({ resources: resources(2) });
    const updates: ResourceUpdatedEvent[] = [];
    const subscribed = await adapter.subscribeResource("test://r/0", (event) => updates.push(event));
    expect(subscribed.success).toBe(true);
    expect(server.subscriptions).toEqual(["test://r/0"]);
    await server.sendResourceUpdated("test://r/1");
    await server.sendResourceUpdated("test://r/0");
    await waitFor(() => updates.length === 1);
    expect(updates).toEqual([{ serverName: "test-server", uri: "test://r/0" }]);
    expect(await subscribed.data!.unsubscribe()).toMatchObject({ success: true });
    expect(server.subscriptions).toEqual([]);
    await server.sendResourceUpdated("test://r/0");
    await adapter.listResources(); // a round trip: the notification has been handled by now
    expect(updates).toHaveLength(1);
  });

  it("sends resources/subscribe once per URI and again after a reconnect", async () => {
    const { adapter, server } = await connectedHarness({ resources: resources(1) });
    const first = await adapter.subscribeResource("test://r/0", () => undefined);
    const second = await adapter.subscribeResource("test://r/0", () => undefined);
    expect(server.subscriptions).toEqual(["test://r/0"]);
    await adapter.reconnect();
    await waitFor(() => server.subscriptions.length === 2);
    await first.data!.unsubscribe();
    expect(server.subscriptions).toHaveLength(2); // the second listener still holds it
    await second.data!.unsubscribe();
    expect(server.subscriptions).toHaveLength(1); // the old session's entry stays in the fake's log
  });

  it("rejects a listener that is not a function as a programmer error", async () => {
    const { adapter } = await connectedHarness({ resources: resources(1) });
    expect(() => adapter.subscribeResource("test://r/0", "nope" as never)).toThrow(MCPUsageError);
    expect(() => adapter.onResourcesChanged(null as never)).toThrow(/onResourcesChanged\(\) needs a function/);
  });

  it("lists again after resources/list_changed and tells the listeners", async () => {
    const events: ResourcesChangedEvent[] = [];
    const { adapter, server } = await connectedHarness(
      { resources: resources(1) },
      { onResourcesChanged: (event) => events.push(event) },
    );
    expect(await adapter.listResources()).toHaveLength(1);
    await server.setResources(resources(3));
    await waitFor(() => events.length === 1);
    expect(events[0]!.resources.map((r) => r.name)).toEqual(["r0", "r1", "r2"]);
    expect(events[0]!.serverName).toBe("test-server");
  });

  it("coalesces a flood of resources/list_changed into a bounded number of listings", async () => {
    const events: ResourcesChangedEvent[] = [];
    const { adapter, server } = await connectedHarness(
      { resources: resources(1) },
      { onResourcesChanged: (event) => events.push(event) },
    );
    const before = server.listCount;
    await server.floodResourceListChanged(1_000);
    await waitFor(() => events.length >= 1);
    await adapter.listResources();
    // One listing for the first notification, one more for everything that came during it, one from listResources.
    expect(server.listCount - before).toBeLessThanOrEqual(3);
    expect(events.length).toBeLessThanOrEqual(2);
  });
});
