import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateMessageRequestSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { createEngine2026, Engine2026 } from "@mcp-tool-adapter/engine-2026";
import { everythingStdioServer, startEverythingHttp, type EverythingHttpServer } from "@mcp-tool-adapter/test-servers";
import type { MCPEngine } from "@mcp-tool-adapter/core";
import { serveOverHttp, type ServedOverHttp } from "./fixtures.js";

// One gateway, shared upstream connections (no upstreamPerClient), in front of server-everything
// twice: "web" over streamable HTTP and "local" over stdio. Over streamable HTTP the upstream sends
// the elicitation or sampling request of a call on that call's response stream, so the gateway
// knows whose call asked however many clients have calls running there: two SDK clients asking at
// once each get only their own question. Over stdio nothing links the request to the call, and
// while another client's call runs there it is still refused rather than guessed. The HTTP upstream
// runs on each engine the gateway can use for it; the stdio one stays on the default engine.

const ENGINES: readonly {
  readonly name: string;
  readonly engine: () => MCPEngine | "sdk-v1" | undefined;
  readonly protocol?: "2025";
}[] = [
  { name: "the default engine", engine: () => undefined },
  { name: 'engine "sdk-v1" (SDK 1.x Client)', engine: () => "sdk-v1" },
  // engine-2026 with its default transport: a 2025 entry, and an auto entry whose probe finds 2025
  // (what `serve` makes of an auto streamable HTTP entry when engine-2026 is installed).
  { name: 'engine-2026, protocol "2025"', engine: () => createEngine2026(), protocol: "2025" },
  { name: "engine-2026, protocol auto (the probe finds 2025)", engine: () => createEngine2026() },
];

let upstream: EverythingHttpServer | undefined;
let served: ServedOverHttp | undefined;
const clients: Client[] = [];

beforeAll(async () => {
  upstream = await startEverythingHttp({ mode: "streamableHttp" });
}, 120_000);

afterAll(async () => {
  await upstream?.stop();
}, 60_000);

afterEach(async () => {
  await Promise.all(
    clients.splice(0).map(async (client) => {
      await (client.transport as StreamableHTTPClientTransport | undefined)?.terminateSession().catch(() => undefined);
      await client.close().catch(() => undefined);
    }),
  );
});

/** Clients that wait, once asked, until `expected` clients were asked (at most 15 s): their questions are then open at once. */
class Meeting {
  readonly #asked = new Set<string>();
  readonly #waiting: (() => void)[] = [];
  constructor(readonly expected: number) {}

  async arrive(name: string): Promise<void> {
    this.#asked.add(name);
    if (this.#asked.size >= this.expected) for (const release of this.#waiting.splice(0)) release();
    else await new Promise<void>((resolve) => this.#waiting.push(resolve) && setTimeout(resolve, 15_000).unref());
  }
}

interface TestClient {
  readonly client: Client;
  /** What this client's user was asked (elicitation messages) and its model was given (sampling prompts). */
  readonly asked: string[];
  readonly sampled: string[];
}

async function connect(name: string, meeting?: Meeting): Promise<TestClient> {
  const client = new Client({ name, version: "1" }, { capabilities: { elicitation: { form: {} }, sampling: {} } });
  const asked: string[] = [];
  const sampled: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    await meeting?.arrive(name);
    const content = { name, check: true, email: `${name}@example.com`, integer: 1, number: 1, enums: "option1" };
    return { action: "accept", content };
  });
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    for (const message of request.params.messages) {
      const content = message.content as { type: string; text?: string };
      if (content.type === "text" && content.text !== undefined) sampled.push(content.text);
    }
    await meeting?.arrive(name);
    return { role: "assistant", content: { type: "text", text: `${name}'s model answers` }, model: `${name}-model` };
  });
  if (served === undefined) throw new Error("the gateway starts in beforeAll");
  await client.connect(new StreamableHTTPClientTransport(new URL(served.http.url)));
  clients.push(client);
  return { client, asked, sampled };
}

function textOf(result: Record<string, unknown>): string {
  return JSON.stringify(result.content);
}

describe.each(ENGINES)(
  "an HTTP upstream's requests go to the client whose call asked, on $name",
  ({ engine, protocol }) => {
    beforeAll(async () => {
      if (upstream === undefined) throw new Error("the upstream starts in beforeAll");
      const web = engine();
      served = await serveOverHttp({
        servers: {
          web: { transport: "streamable-http", url: upstream.url, ...(protocol === undefined ? {} : { protocol }) },
          local: { transport: "stdio", ...everythingStdioServer() },
        },
        ...(web === undefined
          ? {}
          : { serverSet: { engine: (_config, { serverName }) => (serverName === "web" ? web : undefined) } }),
      });
      // The auto entry really probed, and found the 2025 era it is routed on.
      if (web instanceof Engine2026 && protocol === undefined)
        expect(web.knownEra({ name: "web", transport: "streamable-http", url: upstream.url })).toBe("2025");
    }, 120_000);

    afterAll(async () => {
      await served?.close();
      served = undefined;
    }, 60_000);

    it("asks each of two clients calling at once only its own elicitation, and each call gets its own answer", async () => {
      const meeting = new Meeting(2);
      const ada = await connect("ada", meeting);
      const grace = await connect("grace", meeting);
      const [first, second] = await Promise.all([
        ada.client.callTool({ name: "web__trigger-elicitation-request", arguments: {} }),
        grace.client.callTool({ name: "web__trigger-elicitation-request", arguments: {} }),
      ]);
      expect(first.isError, textOf(first)).not.toBe(true);
      expect(second.isError, textOf(second)).not.toBe(true);
      expect(textOf(first)).toContain("ada@example.com");
      expect(textOf(first)).not.toContain("grace@example.com");
      expect(textOf(second)).toContain("grace@example.com");
      expect(textOf(second)).not.toContain("ada@example.com");
      expect(ada.asked).toHaveLength(1);
      expect(grace.asked).toHaveLength(1);
    }, 90_000);

    it("gives each of two clients sampling at once only its own prompt, and each call its own model's answer", async () => {
      const meeting = new Meeting(2);
      const ada = await connect("ada", meeting);
      const grace = await connect("grace", meeting);
      const [first, second] = await Promise.all([
        ada.client.callTool({ name: "web__trigger-sampling-request", arguments: { prompt: "ada asks", maxTokens: 5 } }),
        grace.client.callTool({
          name: "web__trigger-sampling-request",
          arguments: { prompt: "grace asks", maxTokens: 5 },
        }),
      ]);
      expect(first.isError, textOf(first)).not.toBe(true);
      expect(second.isError, textOf(second)).not.toBe(true);
      expect(textOf(first)).toContain("ada's model answers");
      expect(textOf(second)).toContain("grace's model answers");
      expect(ada.sampled).toEqual([expect.stringContaining("ada asks")]);
      expect(grace.sampled).toEqual([expect.stringContaining("grace asks")]);
    }, 90_000);

    it("answers a question over HTTP while another client's call runs there, and still refuses it over stdio", async () => {
      const ada = await connect("ada");
      const grace = await connect("grace");
      for (const server of ["web", "local"] as const) {
        let markRunning!: () => void;
        const started = new Promise<void>((resolve) => (markRunning = resolve));
        const long = ada.client.callTool(
          { name: `${server}__trigger-long-running-operation`, arguments: { duration: 3, steps: 3 } },
          undefined,
          { onprogress: () => markRunning(), timeout: 60_000 },
        );
        await started;
        const asked = await grace.client.callTool({ name: `${server}__trigger-elicitation-request`, arguments: {} });
        if (server === "web") {
          expect(asked.isError, textOf(asked)).not.toBe(true);
          expect(textOf(asked)).toContain("grace@example.com");
        } else {
          expect(asked.isError).toBe(true);
          expect(textOf(asked)).toMatch(
            /calls of 2 downstream clients are running on it at once.*cannot tell whose call asked/,
          );
        }
        expect((await long).isError).not.toBe(true);
      }
      // Grace was asked once (over HTTP), ada never.
      expect(grace.asked).toHaveLength(1);
      expect(ada.asked).toEqual([]);
    }, 120_000);
  },
);
