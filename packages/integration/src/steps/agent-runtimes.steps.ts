import * as assert from "node:assert/strict";
import { join } from "node:path";
import { Given, Then, When } from "@cucumber/cucumber";
import { memoryStdioServer } from "@mcp-tool-adapter/test-servers";
import { ToolRegistry } from "mcp-tool-adapter";
import {
  agentStepRunner,
  FINAL_ANSWER,
  type AgentSettings,
  type AgentStepOutcome,
  type RuntimeName,
} from "../support/agent-runtimes/index.js";
import { assertMentions, parseArguments } from "../support/assertions.js";
import { contentText } from "../support/content.js";
import { connectDefaultAdapter, makeTempDir } from "../support/real-servers.js";
import type { AdapterWorld } from "../support/world.js";

/** This feature's own state per scenario, kept beside the shared world rather than in it. */
interface AgentScenario {
  runtime?: RuntimeName;
  settings?: AgentSettings;
  outcome?: AgentStepOutcome;
}
const scenarios = new WeakMap<AdapterWorld, AgentScenario>();

function scenarioOf(world: AdapterWorld): AgentScenario {
  let scenario = scenarios.get(world);
  if (scenario === undefined) {
    scenario = {};
    scenarios.set(world, scenario);
  }
  return scenario;
}

function requireOutcome(world: AdapterWorld): AgentStepOutcome {
  const outcome = scenarioOf(world).outcome;
  assert.ok(outcome !== undefined, "No agent run yet: a 'When the model calls ...' step must come first.");
  return outcome;
}

const RUNTIME = "(the Vercel AI SDK|LangChain.js|the OpenAI Agents SDK)";

Given(
  "server-memory is connected into a tool registry under the namespace {string}",
  async function (this: AdapterWorld, namespace: string) {
    const dir = await makeTempDir(this, "agent-memory");
    const adapter = await connectDefaultAdapter(this, {
      name: "memory",
      transport: "stdio",
      ...memoryStdioServer(join(dir, "memory.jsonl")),
    });
    this.registry = new ToolRegistry();
    await adapter.registerTools(this.registry, namespace);
  },
);

Given(
  new RegExp(`^an agent on ${RUNTIME} with the registry's tools and approval turned off$`),
  function (this: AdapterWorld, runtime: RuntimeName) {
    Object.assign(scenarioOf(this), { runtime, settings: { approval: "never" } });
  },
);

Given(
  new RegExp(`^an agent on ${RUNTIME} with the registry's tools and the default approval policy$`),
  function (this: AdapterWorld, runtime: RuntimeName) {
    Object.assign(scenarioOf(this), { runtime, settings: { approval: "writes" } });
  },
);

Given(
  new RegExp(`^an agent on ${RUNTIME} with the registry's tools and results limited to (\\d+) characters$`),
  function (this: AdapterWorld, runtime: RuntimeName, maxChars: string) {
    Object.assign(scenarioOf(this), { runtime, settings: { approval: "never", maxChars: Number(maxChars) } });
  },
);

Given(
  "server-memory knows an entity {string} with {int} observations of {int} characters",
  async function (this: AdapterWorld, name: string, count: number, length: number) {
    const observations = Array.from(
      { length: count },
      (_, index) => `${String(index).padStart(3, "0")} ${"x".repeat(length - 4)}`,
    );
    const result = await this.requireRegistry().call("memory/create_entities", {
      entities: [{ name, entityType: "person", observations }],
    });
    assert.ok(result.success, `creating "${name}" through the registry failed: ${result.error ?? ""}`);
  },
);

When(/^the model calls "([^"]*)" with (\{.*\})$/, async function (this: AdapterWorld, name: string, json: string) {
  const scenario = scenarioOf(this);
  assert.ok(
    scenario.runtime !== undefined && scenario.settings !== undefined,
    "No agent yet: a 'Given an agent on ...' step must come first.",
  );
  const runStep = await agentStepRunner(scenario.runtime);
  scenario.outcome = await runStep(this.requireRegistry(), scenario.settings, { name, args: parseArguments(json) });
});

Then("the model reads a tool result that mentions {string}", function (this: AdapterWorld, expected: string) {
  assertMentions(requireOutcome(this).toolResultText, expected, "the tool result in the model's next prompt");
});

Then("the model reads a tool result of at most {int} characters", function (this: AdapterWorld, limit: number) {
  const text = requireOutcome(this).toolResultText;
  assert.ok(text !== undefined && text.length > 0, "the model's next prompt holds no tool result");
  assert.ok(
    text.length <= limit,
    `the tool result has ${text.length} characters, more than ${limit}: ${text.slice(0, 200)}...`,
  );
});

Then("the tool result says it was truncated and how to see the rest", function (this: AdapterWorld) {
  const text = requireOutcome(this).toolResultText ?? "";
  assert.match(text, /\[truncated: showing [\d,]+ of [\d,]+ characters\. Ask the tool for less/);
});

Then("the run finishes with the model's answer", function (this: AdapterWorld) {
  assert.equal(requireOutcome(this).finalAnswer, FINAL_ANSWER);
});

Then("the run stops to ask for approval of {string}", function (this: AdapterWorld, toolName: string) {
  const outcome = requireOutcome(this);
  assert.deepEqual(outcome.approvalRequestedFor, [toolName]);
  assert.equal(outcome.toolResultText, undefined, "the tool ran before it was approved");
  assert.equal(outcome.finalAnswer, undefined, "the run went on past the approval request");
});

async function knownEntityNames(world: AdapterWorld): Promise<string[]> {
  const graph = await world.requireRegistry().call("memory/read_graph", {});
  assert.ok(graph.success, `read_graph failed: ${graph.error ?? ""}`);
  const parsed = JSON.parse(contentText(graph.data)) as { entities?: { name: string }[] };
  return (parsed.entities ?? []).map((entity) => entity.name);
}

Then("server-memory knows an entity {string}", async function (this: AdapterWorld, name: string) {
  assert.ok((await knownEntityNames(this)).includes(name), `server-memory's graph has no entity "${name}"`);
});

Then("server-memory does not know an entity {string}", async function (this: AdapterWorld, name: string) {
  assert.ok(
    !(await knownEntityNames(this)).includes(name),
    `server-memory's graph has "${name}", written before approval`,
  );
});
