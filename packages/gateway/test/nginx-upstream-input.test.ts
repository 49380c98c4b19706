import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTempDirectory,
  startV2HttpServer,
  type TempDirectory,
  type V2HttpServer,
} from "@mcp-tool-adapter/test-servers";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { mcpUrlOf, startGateway, startNginx, stopProcess, type RunningGateway, type RunningNginx } from "./balancer.js";
import { callToolByHand, questionOf } from "./modern-by-hand.js";

// Two `mcp-tool-adapter serve --http --request-state-key-env` processes sharing one secret, behind
// a real nginx (docs/gateway.md's config), in front of a 2026-07-28 upstream (the official v2 SDK's
// server, modern only) whose `ask` tool answers input_required: the question asked through one
// process is answered through the other, and the v2 client's calls through nginx come back.
const KEY_VARIABLE = "F34_GATEWAY_STATE_KEY";
let directory: TempDirectory;
let upstream: V2HttpServer;
const gateways: RunningGateway[] = [];
let nginx: RunningNginx | undefined;

beforeAll(async () => {
  directory = await createTempDirectory("gateway-upstream-input-");
  upstream = await startV2HttpServer({ modernOnly: true });
  const configFile = join(directory.path, "mcp.json");
  await writeFile(
    configFile,
    JSON.stringify({ mcpServers: { v2: { type: "streamable-http", url: upstream.url, protocol: "2026-07-28" } } }),
  );
  // The gateway processes inherit this environment.
  process.env[KEY_VARIABLE] = "the-secret-both-serve-processes-share-0123456789";
  const args = ["--request-state-key-env", KEY_VARIABLE];
  gateways.push(...(await Promise.all([startGateway(configFile, "g1", args), startGateway(configFile, "g2", args)])));
  nginx = await startNginx(
    gateways.map((gateway) => gateway.port),
    directory.path,
  );
}, 180_000);

afterAll(async () => {
  await stopProcess(nginx?.process);
  await Promise.all(gateways.map((gateway) => stopProcess(gateway.process)));
  await upstream.close();
  await directory.remove();
  Reflect.deleteProperty(process.env, KEY_VARIABLE);
}, 60_000);

describe("serve --request-state-key-env, two processes", () => {
  it("take a question on one process and its answer on the other", { timeout: 60_000 }, async () => {
    const { state, key } = questionOf(await callToolByHand({ url: mcpUrlOf(gateways[0]), name: "ask" }));
    const answered = await callToolByHand({
      url: mcpUrlOf(gateways[1]),
      name: "ask",
      extra: { requestState: state, inputResponses: { [key]: { action: "accept", content: { name: "Katherine" } } } },
    });
    expect(answered.error).toBeUndefined();
    expect(answered.result?.["content"]).toEqual([{ type: "text", text: "hello Katherine" }]);
  });

  it("serve the v2 client's calls that ask for input through nginx", { timeout: 120_000 }, async () => {
    const client = new Client(
      { name: "v2-through-nginx", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler("elicitation/create", () => ({ action: "accept", content: { name: "Dorothy" } }));
    await client.connect(new StreamableHTTPClientTransport(new URL(nginx?.url ?? "")));
    try {
      for (let call = 0; call < 4; call += 1) {
        const result = await client.callTool({ name: "ask", arguments: {} });
        expect(result.content).toEqual([{ type: "text", text: "hello Dorothy" }]);
      }
    } finally {
      await client.close();
    }
  });
});
