import { gzipSync } from "node:zlib";
import { startFaultHttpServer, type FaultHttpServer } from "@mcp-tool-adapter/test-servers";
import { afterEach, describe, expect, it } from "vitest";
import { HttpTransportError } from "../src/index.js";
import { createGuardedFetch, type FetchLike } from "../src/guarded-fetch.js";

const servers: FaultHttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function guarded(maxMessageBytes: number, fetch: FetchLike = globalThis.fetch): FetchLike {
  return createGuardedFetch({
    fetch,
    transport: "streamable-http",
    url: "http://127.0.0.1/mcp",
    maxMessageBytes,
    secrets: new Set(),
    onOversizedEvent: () => undefined,
  }).fetch;
}

describe("guarded fetch and Content-Length", () => {
  it("hands out an unencoded response within the limit as it is", async () => {
    const original = new Response('{"ok":true}', {
      headers: { "content-type": "application/json", "content-length": "11" },
    });
    const response = await guarded(100, () => Promise.resolve(original))("http://127.0.0.1/mcp");
    expect(response).toBe(original);
    expect(await response.json()).toEqual({ ok: true });
  });

  it("still counts a body whose Content-Length is not a plain byte count", async () => {
    const original = new Response("z".repeat(200), {
      headers: { "content-type": "application/json", "content-length": "10, 10" },
    });
    const response = await guarded(100, () => Promise.resolve(original))("http://127.0.0.1/mcp");
    expect(response).not.toBe(original);
    const error = await response.text().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(HttpTransportError.isInstance(error) && error.code).toBe("MESSAGE_TOO_LARGE");
  });

  it("counts a compressed body, whose Content-Length says less than fetch hands out", async () => {
    const json = JSON.stringify({ padding: "z".repeat(100_000) });
    const compressed = gzipSync(json);
    expect(compressed.byteLength).toBeLessThan(10_000);
    const server = await startFaultHttpServer({
      kind: "status",
      status: 200,
      body: compressed,
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
    });
    servers.push(server);
    const { url } = server;

    const refused = await guarded(10_000)(url);
    const error = await refused.text().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(HttpTransportError.isInstance(error) && error.code).toBe("MESSAGE_TOO_LARGE");

    const accepted = await guarded(200_000)(url);
    expect(await accepted.text()).toBe(json);
  });
});
