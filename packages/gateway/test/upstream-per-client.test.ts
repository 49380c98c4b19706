import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { listDescendantProcesses } from "@mcp-tool-adapter/test-servers";
import type { GatewayError } from "../src/index.js";
import { createGateway } from "../src/index.js";
import { startGateway, stopProcess } from "./balancer.js";
import { httpGatewayForFile } from "./fixtures.js";

// `upstreamPerClient`: each 2025-era session gets its own upstream processes (server-everything and
// server-filesystem over stdio, from the npm registry). Two SDK clients at once, each with its own
// roots and its own answer to an elicitation: their questions are never refused as unattributable
// (they are with one shared upstream, see per-client-routing.test.ts), each upstream sees exactly
// its client's roots, a session past the limit is refused, and a session's processes end with it.
const MAX_SESSIONS = 2;
const running = httpGatewayForFile({
  upstreams: ["everything", "filesystem"],
  gateway: { upstreamPerClient: { maxSessions: MAX_SESSIONS } },
});
const clients: Client[] = [];

beforeAll(async () => {
  await Promise.all(["ada", "grace"].map((name) => mkdir(join(running.upstreams.directory.path, name))));
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => close(client)));
});

interface TestClient {
  readonly client: Client;
  readonly folder: string;
  /** The elicitation messages this client's user was shown. */
  readonly asked: string[];
}

async function connect(name: string): Promise<TestClient> {
  const folder = join(running.upstreams.directory.path, name);
  const client = new Client(
    { name, version: "1" },
    { capabilities: { elicitation: { form: {} }, roots: { listChanged: true } } },
  );
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    // A user who takes a moment: the other client's question comes in meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const content = { name, check: true, email: `${name}@example.com`, integer: 1, number: 1, enums: "option1" };
    return { action: "accept", content };
  });
  client.setRequestHandler(ListRootsRequestSchema, () => ({
    roots: [{ uri: pathToFileURL(folder).href, name: `${name}'s folder` }],
  }));
  await client.connect(new StreamableHTTPClientTransport(new URL(running.http.url)));
  clients.push(client);
  return { client, folder, asked };
}

/** Ends the client's HTTP session (DELETE, as the spec asks of a client that leaves) and closes it. */
async function close(client: Client): Promise<void> {
  await (client.transport as StreamableHTTPClientTransport | undefined)?.terminateSession().catch(() => undefined);
  await client.close().catch(() => undefined);
}

/** The upstream server processes this test process runs now (the gateway runs in it). */
function upstreamProcesses(): { everything: number; filesystem: number } {
  const commands = listDescendantProcesses().map((info) => info.cmdline);
  return {
    everything: commands.filter((command) => command.includes("server-everything")).length,
    filesystem: commands.filter((command) => command.includes("server-filesystem")).length,
  };
}

async function eventually(check: () => Promise<boolean> | boolean, ms = 30_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

async function allowedDirectories(client: Client): Promise<string> {
  const result = await client.callTool({ name: "filesystem__list_allowed_directories", arguments: {} });
  return JSON.stringify(result.content);
}

describe("upstreamPerClient: every session with upstream connections of its own", () => {
  it(
    "asks each client about its own call, with both asking at once, and shows each upstream only its client's roots",
    { timeout: 120_000 },
    async () => {
      const shared = upstreamProcesses();
      const ada = await connect("ada");
      const grace = await connect("grace");
      // Each session runs its own copy of every upstream.
      expect(upstreamProcesses()).toEqual({ everything: shared.everything + 2, filesystem: shared.filesystem + 2 });

      const [first, second] = await Promise.all([
        ada.client.callTool({ name: "everything__trigger-elicitation-request", arguments: {} }),
        grace.client.callTool({ name: "everything__trigger-elicitation-request", arguments: {} }),
      ]);
      expect(first.isError, JSON.stringify(first.content)).not.toBe(true);
      expect(second.isError, JSON.stringify(second.content)).not.toBe(true);
      expect(JSON.stringify(first.content)).toContain("ada@example.com");
      expect(JSON.stringify(second.content)).toContain("grace@example.com");
      expect(ada.asked).toHaveLength(1);
      expect(grace.asked).toHaveLength(1);

      // Roots: server-filesystem serves the client's folder, and only it.
      await ada.client.listTools();
      await grace.client.listTools();
      expect(
        await eventually(async () => {
          const seen = await allowedDirectories(ada.client);
          return seen.includes(ada.folder) && !seen.includes(grace.folder);
        }),
      ).toBe(true);
      expect(
        await eventually(async () => {
          const seen = await allowedDirectories(grace.client);
          return seen.includes(grace.folder) && !seen.includes(ada.folder);
        }),
      ).toBe(true);
      const roots = await ada.client.callTool({ name: "everything__get-roots-list", arguments: {} });
      expect(JSON.stringify(roots.content)).toContain(pathToFileURL(ada.folder).href);
      expect(JSON.stringify(roots.content)).not.toContain(pathToFileURL(grace.folder).href);

      // Both sessions end: their upstream processes end with them.
      await close(ada.client);
      await close(grace.client);
      expect(await eventually(() => JSON.stringify(upstreamProcesses()) === JSON.stringify(shared))).toBe(true);
      expect(running.gateway.connectionCount).toBe(0);
    },
  );

  it(
    "refuses a session past maxSessions with TOO_MANY_SESSIONS, and takes one again once a session ends",
    {
      timeout: 120_000,
    },
    async () => {
      const ada = await connect("ada");
      await connect("grace");
      const third = new Client({ name: "third", version: "1" });
      const refused = await third.connect(new StreamableHTTPClientTransport(new URL(running.http.url))).then(
        () => undefined,
        (error: unknown) => error,
      );
      // The SDK's StreamableHTTPError carries the HTTP status as its code.
      expect((refused as { code?: unknown }).code).toBe(503);
      expect(String(refused)).toContain('"code":"TOO_MANY_SESSIONS"');
      expect(String(refused)).toContain("already serves 2 sessions");
      await close(ada.client);
      const fourth = await connect("ada");
      expect((await fourth.client.listTools()).tools.length).toBeGreaterThan(0);
    },
  );

  it("refuses a maxSessions that is not a whole number of at least 1", () => {
    expect(() => createGateway({ servers: running.upstreams.servers, upstreamPerClient: { maxSessions: 0 } })).toThrow(
      expect.objectContaining({ code: "GATEWAY_OPTIONS_INVALID" }) as GatewayError,
    );
  });
});

describe("serve --http --upstream-per-client <max-sessions>", () => {
  it("passes the limit to the gateway: one session served, the next refused", { timeout: 180_000 }, async () => {
    const served = await startGateway(running.upstreams.configFile, "p1", ["--upstream-per-client", "1"]);
    const url = new URL(`http://127.0.0.1:${served.port}/mcp`);
    const first = new Client({ name: "first", version: "1" });
    const second = new Client({ name: "second", version: "1" });
    try {
      await first.connect(new StreamableHTTPClientTransport(url));
      expect((await first.listTools()).tools.length).toBeGreaterThan(0);
      const refused = await second.connect(new StreamableHTTPClientTransport(url)).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect((refused as { code?: unknown }).code).toBe(503);
      expect(String(refused)).toContain('"code":"TOO_MANY_SESSIONS"');
    } finally {
      await close(first);
      await second.close().catch(() => undefined);
      await stopProcess(served.process);
    }
  });
});
