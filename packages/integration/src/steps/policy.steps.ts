import * as assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Given, Then, When } from "@cucumber/cucumber";
import { memoryStdioServer } from "@mcp-tool-adapter/test-servers";
import { runCli } from "mcp-tool-adapter";
import { engineOption } from "../support/engine.js";
import { makeTempDir } from "../support/real-servers.js";
import type { AdapterWorld } from "../support/world.js";

/** This feature's own state per scenario, kept beside the shared world. */
interface PolicyScenario {
  dir: string;
  config: string;
  code?: number;
  stdout: string;
  stderr: string;
  questions: string[];
}
const scenarios = new WeakMap<AdapterWorld, PolicyScenario>();

function scenarioOf(world: AdapterWorld): PolicyScenario {
  const scenario = scenarios.get(world);
  assert.ok(scenario !== undefined, "No config yet: 'Given a config file with server-memory ...' must come first.");
  return scenario;
}

type EditablePin = { fingerprint: string; parts: Record<string, string>; capabilities: Record<string, unknown> };
type EditableLock = { servers: Record<string, { tools: Record<string, EditablePin> }> };

async function run(
  world: AdapterWorld,
  command: string,
  options: { terminal: boolean; answer?: boolean; args?: string },
) {
  const scenario = scenarioOf(world);
  scenario.stdout = "";
  scenario.stderr = "";
  const argv = [...command.split(" "), ...(options.args === undefined ? [] : ["--args", options.args])];
  scenario.code = await runCli([...argv, "--config", scenario.config], {
    stdout: { write: (chunk: string) => (scenario.stdout += chunk) },
    stderr: { write: (chunk: string) => (scenario.stderr += chunk) },
    // The scenario's own tool-list cache: never the user's real one.
    env: { ...process.env, NO_COLOR: "1", MCP_TOOL_ADAPTER_CACHE_DIR: join(scenario.dir, "cache") },
    cwd: scenario.dir,
    isTTY: false,
    stdinIsTTY: options.terminal,
    ...engineOption(world.engine),
    confirm: (question) => {
      scenario.questions.push(question);
      return Promise.resolve(options.answer === true);
    },
  });
}

async function editLock(world: AdapterWorld, edit: (lock: EditableLock) => void): Promise<void> {
  const path = join(scenarioOf(world).dir, "mcp-tools.lock.json");
  const lock = JSON.parse(await readFile(path, "utf8")) as EditableLock;
  edit(lock);
  await writeFile(path, JSON.stringify(lock));
}

function pinOf(lock: EditableLock, tool: string): EditablePin {
  const pin = lock.servers.memory?.tools[tool];
  assert.ok(pin !== undefined, `The lock file has no pin for memory/${tool}.`);
  return pin;
}

Given("a config file with server-memory as {string}", async function (this: AdapterWorld, name: string) {
  const dir = await makeTempDir(this, "policy");
  const config = join(dir, "mcp.json");
  await writeFile(config, JSON.stringify({ mcpServers: { [name]: memoryStdioServer(join(dir, "memory.jsonl")) } }));
  scenarios.set(this, { dir, config, stdout: "", stderr: "", questions: [] });
});

When(
  "I run {string} without a terminal, with arguments {}",
  async function (this: AdapterWorld, command: string, args: string) {
    await run(this, command, { terminal: false, args });
  },
);

When("I run {string} without a terminal", async function (this: AdapterWorld, command: string) {
  await run(this, command, { terminal: false });
});

When(
  "I run {string} on a terminal answering {string}, with arguments {}",
  async function (this: AdapterWorld, command: string, answer: string, args: string) {
    await run(this, command, { terminal: true, answer: answer === "yes", args });
  },
);

Given("I pinned the tools with {string}", async function (this: AdapterWorld, command: string) {
  await run(this, command, { terminal: false });
  assert.equal(scenarioOf(this).code, 0, scenarioOf(this).stderr);
});

Given("the lock file records {string} with another description", async function (this: AdapterWorld, tool: string) {
  await editLock(this, (lock) => {
    const pin = pinOf(lock, tool);
    pin.fingerprint = "sha256:0";
    pin.parts.description = "sha256:0";
  });
});

Given("the lock file records {string} as read-only", async function (this: AdapterWorld, tool: string) {
  await editLock(this, (lock) => {
    const pin = pinOf(lock, tool);
    pin.fingerprint = "sha256:0";
    pin.capabilities = { ...pin.capabilities, readOnly: true, writes: false };
  });
});

Then("the command succeeds", function (this: AdapterWorld) {
  const scenario = scenarioOf(this);
  assert.equal(scenario.code, 0, scenario.stderr);
});

Then("the command succeeds and does not mention {string}", function (this: AdapterWorld, text: string) {
  const scenario = scenarioOf(this);
  assert.equal(scenario.code, 0, scenario.stderr);
  assert.ok(!scenario.stdout.includes(text), `The output mentions "${text}":\n${scenario.stdout}`);
});

Then("the command fails and says {string}", function (this: AdapterWorld, text: string) {
  const scenario = scenarioOf(this);
  assert.equal(scenario.code, 1, scenario.stderr);
  assert.ok(scenario.stderr.includes(text), `stderr does not say "${text}":\n${scenario.stderr}`);
});

Then("the command says {string}", function (this: AdapterWorld, text: string) {
  const { stderr } = scenarioOf(this);
  assert.ok(stderr.includes(text), `stderr does not say "${text}":\n${stderr}`);
});

Then("I was asked whether {string}", function (this: AdapterWorld, text: string) {
  const { questions } = scenarioOf(this);
  assert.ok(
    questions.some((question) => question.includes(text)),
    `No question mentions "${text}": ${JSON.stringify(questions)}`,
  );
});

Then(
  "the tool list does not contain {string} or {string}",
  function (this: AdapterWorld, first: string, second: string) {
    const names = (JSON.parse(scenarioOf(this).stdout) as { tools: { name: string }[] }).tools.map((tool) => tool.name);
    assert.ok(names.length > 0, "The tool list is empty.");
    for (const name of [first, second]) assert.ok(!names.includes(name), `${name} is listed: ${names.join(", ")}`);
  },
);
