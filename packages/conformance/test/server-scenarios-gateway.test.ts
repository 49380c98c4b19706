import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGateway, listenHttp, type Gateway, type GatewayHttpServer } from "@mcp-tool-adapter/gateway";
import { startConformanceHttpServer, type ConformanceHttpServer } from "@mcp-tool-adapter/test-servers";
import { runServerScenarios, type ServerScenarioVerdict } from "../src/index.js";

// The official suite's server scenarios against our conformance test server (test-servers: every
// tool, resource, prompt and behaviour the scenarios ask for) on its own, then against the gateway
// in single-server mode in front of that same server: both must pass every active scenario. The
// suite calls fs.globSync (Node 22), so this runs on CI's Node 24 leg.
const nodeMajor = Number(process.versions.node.split(".")[0]);

/** The active server scenarios of the suite (0.1.16): a scenario the suite adds or drops fails the first test. */
const ACTIVE_SERVER_SCENARIOS = [
  "server-initialize",
  "logging-set-level",
  "ping",
  "completion-complete",
  "tools-list",
  "tools-call-simple-text",
  "tools-call-image",
  "tools-call-audio",
  "tools-call-embedded-resource",
  "tools-call-mixed-content",
  "tools-call-with-logging",
  "tools-call-error",
  "tools-call-with-progress",
  "tools-call-sampling",
  "tools-call-elicitation",
  "elicitation-sep1034-defaults",
  "server-sse-multiple-streams",
  "elicitation-sep1330-enums",
  "resources-list",
  "resources-read-text",
  "resources-read-binary",
  "resources-templates-read",
  "resources-subscribe",
  "resources-unsubscribe",
  "prompts-list",
  "prompts-get-simple",
  "prompts-get-with-args",
  "prompts-get-embedded-resource",
  "prompts-get-with-image",
  "dns-rebinding-protection",
];

// Undefined until beforeAll got that far: afterAll stops what was started.
let upstream: ConformanceHttpServer | undefined;
let gateway: Gateway | undefined;
let http: GatewayHttpServer | undefined;
let direct: Map<string, ServerScenarioVerdict>;
let throughGateway: Map<string, ServerScenarioVerdict>;

function failures(verdicts: Map<string, ServerScenarioVerdict>): unknown[] {
  return [...verdicts.values()]
    .filter((verdict) => !verdict.passed)
    .map((verdict) => ({
      scenario: verdict.scenario,
      failed: verdict.checks.filter((check) => check.status !== "SUCCESS"),
    }));
}

describe.skipIf(nodeMajor < 22)(
  "the official MCP conformance suite (0.1.16), server scenarios through the gateway",
  () => {
    beforeAll(async () => {
      upstream = await startConformanceHttpServer();
      gateway = createGateway({ servers: { conformance: { transport: "streamable-http", url: upstream.url } } });
      const report = await gateway.start();
      expect(report.failed).toEqual([]);
      http = await listenHttp(gateway);
      // One after the other: both runs talk to the same upstream server.
      direct = await runServerScenarios(upstream.url);
      throughGateway = await runServerScenarios(http.url);
    }, 240_000);

    afterAll(async () => {
      await http?.close();
      await gateway?.close();
      await upstream?.close();
    }, 60_000);

    it("runs every active server scenario of the installed suite", () => {
      expect([...direct.keys()].sort()).toEqual([...ACTIVE_SERVER_SCENARIOS].sort());
      expect([...throughGateway.keys()].sort()).toEqual([...ACTIVE_SERVER_SCENARIOS].sort());
    });

    it("the conformance test server passes every scenario on its own", () => {
      const failed = failures(direct);
      expect(failed, JSON.stringify(failed, null, 2)).toEqual([]);
      // It really was asked: the subscribe scenario's session kept its subscription.
      expect(
        [...upstream!.sessions.values()].some((session) => session.subscriptions.has("test://watched-resource")),
      ).toBe(true);
    });

    it("the gateway in single-server mode in front of it passes every scenario too", () => {
      const failed = failures(throughGateway);
      expect(failed, JSON.stringify(failed, null, 2)).toEqual([]);
    });
  },
);
