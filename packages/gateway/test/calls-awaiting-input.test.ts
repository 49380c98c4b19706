import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGateway, GatewayError, listenHttp, type Gateway, type GatewayHttpServer } from "../src/index.js";
import { everythingStdioServer } from "@mcp-tool-adapter/test-servers";
import { callToolByHand, questionOf } from "./modern-by-hand.js";

// maxCallsAwaitingInput: server-everything's elicitation and sampling tools (a 2025-era upstream over
// a real stdio pipe) asked by 2026-07-28 calls written by hand, with room for one waiting call. Two
// copies of the server (one and two), so that each waiting call is the only call on its upstream
// connection and its question can be attributed to it.
let gateway: Gateway;
let http: GatewayHttpServer;

beforeAll(async () => {
  gateway = createGateway({ servers: SERVERS, maxCallsAwaitingInput: 1 });
  await gateway.start();
  http = await listenHttp(gateway);
}, 120_000);

afterAll(async () => {
  await http.close();
  await gateway.close();
}, 60_000);

const SERVERS = {
  one: { transport: "stdio" as const, ...everythingStdioServer() },
  two: { transport: "stdio" as const, ...everythingStdioServer() },
};
const ELICIT_ONE = "one__trigger-elicitation-request";
const ELICIT_TWO = "two__trigger-elicitation-request";
const SAMPLE_TWO = "two__trigger-sampling-request";

describe("maxCallsAwaitingInput", () => {
  it(
    "refuses a new waiting call past the limit with a classified error, keeps the waiting one, and frees the slot when it ends",
    { timeout: 120_000 },
    async () => {
      const url = http.url;
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
