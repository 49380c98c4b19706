import { afterEach, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { httpGatewayForFile } from "./fixtures.js";

// Two downstream clients at once over HTTP, each with its own roots and its own answer to an
// elicitation, in front of one shared server-everything (over stdio): an upstream's question goes
// to the client whose call asked, never to the other one, and is refused when it cannot be told
// whose it is; the upstream sees the union of the connected clients' roots, and a client leaving
// takes its roots with it.
const running = httpGatewayForFile({ upstreams: ["everything"] });
const clients: Client[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
});

interface TestClient {
  readonly client: Client;
  /** The elicitation messages this client's user was shown. */
  readonly asked: string[];
}

async function connect(name: string, roots: string[]): Promise<TestClient> {
  const client = new Client(
    { name, version: "1" },
    { capabilities: { elicitation: { form: {} }, roots: { listChanged: true } } },
  );
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request.params.message);
    const content = { name, check: true, email: `${name}@example.com`, integer: 1, number: 1, enums: "option1" };
    return { action: "accept", content };
  });
  client.setRequestHandler(ListRootsRequestSchema, () => ({
    roots: roots.map((uri) => ({ uri, name: `${name}'s folder` })),
  }));
  await client.connect(new StreamableHTTPClientTransport(new URL(running.http.url)));
  clients.push(client);
  return { client, asked };
}

async function rootsSeenBy(client: Client): Promise<string> {
  const result = await client.callTool({ name: "get-roots-list", arguments: {} });
  return JSON.stringify(result.content);
}

/** Polls `check` until it holds, for at most `ms` (roots reach the upstream asynchronously). */
async function eventually(check: () => Promise<boolean>, ms = 20_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

describe("per-client routing through one shared upstream", () => {
  it("asks each client's user only about its own call, with both clients connected", async () => {
    const ada = await connect("ada", []);
    const grace = await connect("grace", []);
    const [first, second] = [
      await ada.client.callTool({ name: "trigger-elicitation-request", arguments: {} }),
      await grace.client.callTool({ name: "trigger-elicitation-request", arguments: {} }),
    ];
    expect(JSON.stringify(first.content)).toContain("ada@example.com");
    expect(JSON.stringify(second.content)).toContain("grace@example.com");
    expect(ada.asked).toHaveLength(1);
    expect(grace.asked).toHaveLength(1);
  }, 60_000);

  it("refuses an elicitation it cannot attribute while another client's call runs there, and asks no one", async () => {
    const ada = await connect("ada", []);
    const grace = await connect("grace", []);
    let markRunning!: () => void;
    const started = new Promise<void>((resolve) => (markRunning = resolve));
    const long = ada.client.callTool(
      { name: "trigger-long-running-operation", arguments: { duration: 4, steps: 4 } },
      undefined,
      { onprogress: () => markRunning(), timeout: 60_000 },
    );
    await started;
    const asked = await grace.client.callTool({ name: "trigger-elicitation-request", arguments: {} });
    expect(asked.isError).toBe(true);
    expect(JSON.stringify(asked.content)).toMatch(/cannot tell whose call asked/);
    expect(ada.asked).toEqual([]);
    expect(grace.asked).toEqual([]);
    expect((await long).isError).not.toBe(true);
    // Once ada's call is done the question is grace's alone again.
    const again = await grace.client.callTool({ name: "trigger-elicitation-request", arguments: {} });
    expect(JSON.stringify(again.content)).toContain("grace@example.com");
  }, 90_000);

  it("gives the upstream the union of the clients' roots, and drops a client's roots when it leaves", async () => {
    const ada = await connect("ada", ["file:///srv/ada"]);
    const grace = await connect("grace", ["file:///srv/grace"]);
    // Each client shares its roots at its first tools request.
    await ada.client.listTools();
    await grace.client.listTools();
    const both = await eventually(async () => {
      const seen = await rootsSeenBy(grace.client);
      return seen.includes("file:///srv/ada") && seen.includes("file:///srv/grace");
    });
    expect(both).toBe(true);
    // A client that leaves ends its HTTP session (DELETE), as the spec asks.
    await (ada.client.transport as StreamableHTTPClientTransport).terminateSession();
    await ada.client.close();
    const onlyGrace = await eventually(async () => {
      const seen = await rootsSeenBy(grace.client);
      return !seen.includes("file:///srv/ada") && seen.includes("file:///srv/grace");
    });
    expect(onlyGrace).toBe(true);
  }, 90_000);
});
