import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createGateway, GatewayError } from "../src/index.js";
import { createTempDirectory, everythingStdioServer } from "@mcp-tool-adapter/test-servers";
import { startGateway, stopProcess } from "./balancer.js";
import { servedOverHttpForFile } from "./fixtures.js";
import { callToolByHand, questionOf, type ModernAnswer } from "./modern-by-hand.js";

// maxCallsAwaitingInput: server-everything's elicitation and sampling tools (a 2025-era upstream over
// a real stdio pipe) asked by 2026-07-28 calls written by hand, with room for one waiting call. Two
// copies of the server (one and two), so that each waiting call is the only call on its upstream
// connection and its question can be attributed to it.
const SERVERS = {
  one: { transport: "stdio" as const, ...everythingStdioServer() },
  two: { transport: "stdio" as const, ...everythingStdioServer() },
};
const ELICIT_ONE = "one__trigger-elicitation-request";
const ELICIT_TWO = "two__trigger-elicitation-request";
const SAMPLE_TWO = "two__trigger-sampling-request";
const running = servedOverHttpForFile(() => ({ servers: SERVERS, maxCallsAwaitingInput: 1 }));

describe("maxCallsAwaitingInput", () => {
  it(
    "refuses a new waiting call past the limit with a classified error, keeps the waiting one, and frees the slot when it ends",
    { timeout: 120_000 },
    async () => {
      const url = running.http.url;
      const first = questionOf(await callToolByHand({ url, name: ELICIT_ONE }));

      const second = await callToolByHand({ url, name: ELICIT_TWO });
      expect(second.result).toBeUndefined();
      expect(second.error?.code).toBe(-32603);
      expect(second.error?.data?.code).toBe("TOO_MANY_CALLS_AWAITING_INPUT");
      expect(second.error?.data?.["limit"]).toBe(1);
      expect(second.error?.message).toMatch(/maxCallsAwaitingInput/);

      const sampled = await callToolByHand({
        url,
        name: SAMPLE_TWO,
        arguments: { prompt: "hi", maxTokens: 5 },
        capabilities: { sampling: {} },
      });
      expect(sampled.error?.data?.code).toBe("TOO_MANY_CALLS_AWAITING_INPUT");

      // A call that asks nothing is not limited.
      const echo = await callToolByHand({ url, name: "two__echo", arguments: { message: "not waiting" } });
      expect(JSON.stringify(echo.result)).toContain("not waiting");

      // The waiting call kept its slot and finishes.
      const answered = await callToolByHand({
        url,
        name: ELICIT_ONE,
        extra: {
          requestState: first.state,
          inputResponses: { [first.key]: { action: "accept", content: { name: "First" } } },
        },
      });
      expect(answered.error).toBeUndefined();
      expect(JSON.stringify(answered.result)).toContain("First");

      // Its slot is free again, and the refused calls left nothing behind: neither a slot nor a call
      // running on server two (which would make this question unattributable, not input_required).
      const next = questionOf(await callToolByHand({ url, name: ELICIT_TWO }));
      const finished = await callToolByHand({
        url,
        name: ELICIT_TWO,
        extra: {
          requestState: next.state,
          inputResponses: { [next.key]: { action: "accept", content: { name: "Next" } } },
        },
      });
      expect(JSON.stringify(finished.result)).toContain("Next");
    },
  );

  it("must be a whole number of at least 0", () => {
    for (const bad of [-1, 1.5, Number.NaN]) {
      let thrown: unknown;
      try {
        createGateway({ servers: SERVERS, maxCallsAwaitingInput: bad });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(GatewayError);
      expect((thrown as GatewayError).code).toBe("GATEWAY_OPTIONS_INVALID");
    }
  });
});

describe("serve --max-calls-awaiting-input <n> --input-timeout <ms>", () => {
  it(
    "passes both to the gateway: a second waiting call is refused, and the first one's slot frees when its wait times out",
    { timeout: 180_000 },
    async () => {
      const directory = await createTempDirectory("gateway-serve-waits-");
      const configFile = join(directory.path, "mcp.json");
      const { one, two } = SERVERS;
      await writeFile(configFile, JSON.stringify({ mcpServers: { one, two } }));
      const served = await startGateway(configFile, "w1", [
        "--max-calls-awaiting-input",
        "1",
        "--input-timeout",
        "1500",
      ]);
      try {
        const url = `http://127.0.0.1:${served.port}/mcp`;
        const first = questionOf(await callToolByHand({ url, name: ELICIT_ONE }));
        const refused = await callToolByHand({ url, name: ELICIT_TWO });
        expect(refused.error?.data?.code).toBe("TOO_MANY_CALLS_AWAITING_INPUT");
        expect(refused.error?.data?.["limit"]).toBe(1);

        // Nobody answers the first question: after --input-timeout the gateway gives that call up,
        // which frees its slot (polled: a loaded machine may fire the timer late).
        let next: ModernAnswer | undefined;
        for (let attempt = 0; attempt < 60; attempt += 1) {
          const answer = await callToolByHand({ url, name: ELICIT_TWO });
          if (answer.result?.resultType === "input_required") {
            next = answer;
            break;
          }
          expect(answer.error?.data?.code).toBe("TOO_MANY_CALLS_AWAITING_INPUT");
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
        expect(next?.result?.resultType).toBe("input_required");

        const late = await callToolByHand({
          url,
          name: ELICIT_ONE,
          extra: {
            requestState: first.state,
            inputResponses: { [first.key]: { action: "accept", content: { name: "Too late" } } },
          },
        });
        expect(late.error?.data?.code).toBe("REQUEST_STATE_UNKNOWN");
      } finally {
        await stopProcess(served.process);
        await directory.remove();
      }
    },
  );

  it("refuses a value out of rule as a usage error, naming the flag and the value", { timeout: 120_000 }, async () => {
    const directory = await createTempDirectory("gateway-serve-waits-");
    const configFile = join(directory.path, "mcp.json");
    await writeFile(configFile, JSON.stringify({ mcpServers: { one: SERVERS.one } }));
    try {
      for (const [flag, value] of [
        ["--max-calls-awaiting-input", "-1"],
        ["--input-timeout", "soon"],
      ] as const) {
        const failed = await startGateway(configFile, "w2", [flag, value]).then(
          async (running) => {
            await stopProcess(running.process);
            return undefined;
          },
          (error: unknown) => error,
        );
        // Refused while the command line is read (exit 2), before a server starts.
        expect(String(failed)).toMatch(/gateway exited \(2\)/);
        expect(String(failed)).toContain(`option '${flag}`);
        expect(String(failed)).toContain(`got "${value}"`);
      }
    } finally {
      await directory.remove();
    }
  });
});
