import { startFaultHttpServer, type FaultHttpServer } from "@mcp-tool-adapter/test-servers";
import { afterEach, describe, expect, it } from "vitest";
import { createSseTransport, createStreamableHttpTransport } from "../src/index.js";
import { newClient, rejectionOf } from "./helpers.js";

// fetch refuses a URL with user info, so the transport moves it into a Basic Authorization
// header. That must work where there is no Node Buffer (a browser bundle) and for any characters.

let servers: FaultHttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

/** Runs `build` with the global `Buffer` gone, as in a browser. */
function withoutBuffer<T>(build: () => T): T {
  const saved = Object.getOwnPropertyDescriptor(globalThis, "Buffer")!;
  Reflect.deleteProperty(globalThis, "Buffer");
  try {
    return build();
  } finally {
    Object.defineProperty(globalThis, "Buffer", saved);
  }
}

/** The user and password a Basic Authorization header carries, decoded as UTF-8. */
function basicCredentials(header: string | undefined): string | undefined {
  const encoded = /^Basic (.+)$/.exec(header ?? "")?.[1];
  return encoded === undefined
    ? undefined
    : new TextDecoder().decode(Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0)));
}

describe.each([
  { kind: "streamable-http", create: createStreamableHttpTransport },
  { kind: "sse", create: createSseTransport },
] as const)("$kind: user info in the url", ({ create }) => {
  it.each([
    ["ASCII", "alice", "s3cret:with-colon"],
    ["non-ASCII", "jürgen", "pässwört-€-😀"],
  ])("is sent as Basic auth (UTF-8) and works without Node's Buffer (%s)", async (_what, user, password) => {
    const server = await startFaultHttpServer(() => ({ kind: "status", status: 401, body: "no" }));
    servers.push(server);
    const url = new URL(server.url);
    url.username = encodeURIComponent(user);
    url.password = encodeURIComponent(password);
    const transport = withoutBuffer(() => create({ url: url.href }));
    const client = newClient();
    await rejectionOf(client.connect(transport, { timeout: 10_000 }));
    await client.close();
    expect(server.requests.length).toBeGreaterThan(0);
    expect(basicCredentials(server.requests[0]?.headers.authorization)).toBe(`${user}:${password}`);
    // The user info left the URL itself.
    expect(server.requests[0]?.url).not.toContain(encodeURIComponent(user));
  });
});
