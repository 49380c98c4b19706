import { describe, expect, it } from "vitest";
import type { HistogramMetricData } from "@opentelemetry/sdk-metrics";
import { Client as Client2025 } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { StreamableHTTPClientTransport as Http2025 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as Client2026, StreamableHTTPClientTransport as Http2026 } from "@modelcontextprotocol/client";
import { serverHistograms } from "../src/request-metrics.js";
import { meteredEverythingGateway } from "./metered-gateway.js";

// The gateway's MCP metrics (OpenTelemetry conventions for MCP): `mcp.server.operation.duration`
// per downstream request and `mcp.server.session.duration` per 2025-era session, read from the
// real OTel SDK's meter provider. Only a meter provider is given: durations need no tracing.

/** The conventions' bucket boundaries (seconds) for all four MCP duration histograms. */
const CONVENTION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

const metered = meteredEverythingGateway();

const histogram = (name: string) => metered.histogram(name);

/** The data points whose attributes include `attributes`. */
function pointsWith(metric: HistogramMetricData | undefined, attributes: Record<string, string>) {
  return (metric?.dataPoints ?? []).filter((point) =>
    Object.entries(attributes).every(([key, value]) => point.attributes[key] === value),
  );
}

describe("mcp.server.operation.duration", () => {
  it("is a histogram in seconds with the conventions' buckets, one point per kind of request", async () => {
    const client = new Client2025({ name: "metrics-2025", version: "1" });
    await client.connect(new Http2025(new URL(metered.http.url)));
    const echoed = await client.callTool({ name: "echo", arguments: { message: "measured" } });
    expect(JSON.stringify(echoed.content)).toContain("measured");
    await expect(client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await client.close();

    const metric = await histogram("mcp.server.operation.duration");
    expect(metric?.descriptor.unit).toBe("s");
    const [call] = pointsWith(metric, {
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "echo",
      "gen_ai.operation.name": "execute_tool",
    });
    expect(call).toBeDefined();
    expect(call!.value.count).toBe(1);
    expect(call!.value.buckets.boundaries).toEqual(CONVENTION_BUCKETS);
    expect(call!.value.sum).toBeGreaterThan(0);
    expect(call!.attributes).toMatchObject({
      "network.transport": "tcp",
      "network.protocol.name": "http",
      "mcp.protocol.version": expect.stringMatching(/^2025-/u) as string,
    });
    expect(call!.attributes["error.type"]).toBeUndefined();
    // What has no bound on its values is the span's, never the metric's.
    for (const point of metric!.dataPoints) {
      expect(point.attributes["jsonrpc.request.id"]).toBeUndefined();
      expect(point.attributes["mcp.session.id"]).toBeUndefined();
      expect(point.attributes["mcp.resource.uri"]).toBeUndefined();
    }
    const [unknown] = pointsWith(metric, { "gen_ai.tool.name": "no_such_tool" });
    expect(unknown!.attributes).toMatchObject({ "error.type": "-32602", "rpc.response.status_code": "-32602" });
    // The SDK answers initialize itself: measured from the message stream, as its span is.
    expect(pointsWith(metric, { "mcp.method.name": "initialize" })).not.toHaveLength(0);
  });

  it("measures 2026-07-28 requests with the revision they name", async () => {
    const client = new Client2026(
      { name: "metrics-2026", version: "1" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(new Http2026(new URL(metered.http.url)));
    await client.listTools();
    await client.close();
    const metric = await histogram("mcp.server.operation.duration");
    const lists = pointsWith(metric, { "mcp.method.name": "tools/list", "mcp.protocol.version": "2026-07-28" });
    expect(lists).toHaveLength(1);
    expect(pointsWith(metric, { "mcp.method.name": "server/discover" })).toHaveLength(1);
  });

  it("a tool's own failure is error.type tool_error", async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await metered.gateway.connect(serverSide);
    const client = new Client2025({ name: "metrics-tool-error", version: "1" });
    await client.connect(clientSide);
    // server-everything's get-sum refuses an argument of the wrong type with a result marked isError.
    const result = await client.callTool({ name: "get-sum", arguments: { a: "not a number", b: 1 } });
    expect(result.isError).toBe(true);
    await client.close();
    const metric = await histogram("mcp.server.operation.duration");
    const [failed] = pointsWith(metric, { "gen_ai.tool.name": "get-sum" });
    expect(failed!.attributes).toMatchObject({ "error.type": "tool_error", "network.transport": "pipe" });
  });
});

describe("mcp.server.session.duration", () => {
  it("records each 2025-era session once it ends, over HTTP and over a pipe", async () => {
    const before = (await histogram("mcp.server.session.duration"))?.dataPoints ?? [];
    const count = (points: typeof before, transport: string) =>
      points
        .filter((point) => point.attributes["network.transport"] === transport)
        .reduce((n, p) => n + p.value.count, 0);

    const overHttp = new Client2025({ name: "session-http", version: "1" });
    const httpTransport = new Http2025(new URL(metered.http.url));
    await overHttp.connect(httpTransport);
    await overHttp.listTools();
    // The session ends with the client's DELETE.
    await httpTransport.terminateSession();
    await overHttp.close();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await metered.gateway.connect(serverSide);
    const overPipe = new Client2025({ name: "session-pipe", version: "1" });
    await overPipe.connect(clientSide);
    await overPipe.close();

    await expect
      .poll(async () => count((await histogram("mcp.server.session.duration"))?.dataPoints ?? [], "tcp"))
      .toBe(count(before, "tcp") + 1);
    const metric = await histogram("mcp.server.session.duration");
    expect(count(metric!.dataPoints, "pipe")).toBe(count(before, "pipe") + 1);
    expect(metric!.descriptor.unit).toBe("s");
    const [http2025] = pointsWith(metric, { "network.transport": "tcp" });
    expect(http2025!.value.buckets.boundaries).toEqual(CONVENTION_BUCKETS);
    expect(http2025!.attributes).toMatchObject({
      "network.protocol.name": "http",
      "mcp.protocol.version": expect.stringMatching(/^2025-/u) as string,
    });
    expect(http2025!.attributes["mcp.session.id"]).toBeUndefined();
  });
});

describe("nothing to record", () => {
  it("makes no histogram without a meter provider given or registered", () => {
    expect(serverHistograms(undefined)).toBeUndefined();
    expect(serverHistograms(metered.meterProvider)).toBeDefined();
  });
});
