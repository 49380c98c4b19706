import * as assert from "node:assert/strict";
import { Given, Then, When } from "@cucumber/cucumber";
import {
  counterServerConfig,
  leakMarkerEnv,
  readCounterState,
  setCounterServerDown,
} from "@mcp-tool-adapter/test-servers";
import { MCPToolAdapter, type MCPToolResult } from "mcp-tool-adapter";
import { adapterOptionsOn } from "../support/engine.js";
import { makeTempDir } from "../support/real-servers.js";
import type { AdapterWorld } from "../support/world.js";

const COOLDOWN_MS = 60_000;

/** This feature's own state per scenario, kept beside the shared world rather than in it. */
interface RecoveryScenario {
  stateDir: string;
  clock: { value: number };
  read?: MCPToolResult;
  write?: { id: string; result: MCPToolResult };
}
const scenarios = new WeakMap<AdapterWorld, RecoveryScenario>();

function scenarioOf(world: AdapterWorld): RecoveryScenario {
  const scenario = scenarios.get(world);
  assert.ok(scenario !== undefined, "No counter server yet: the Background must connect one first.");
  return scenario;
}

async function serverPid(adapter: MCPToolAdapter): Promise<number> {
  const result = await adapter.invoke("whoami");
  assert.equal(result.success, true, result.error ?? "");
  const item = result.data?.content[0] as { text: string };
  return (JSON.parse(item.text) as { pid: number }).pid;
}

Given("a counter server over stdio, connected with recovery on", async function (this: AdapterWorld) {
  const stateDir = await makeTempDir(this, "counter");
  const clock = { value: 0 };
  const adapter = new MCPToolAdapter(
    { name: "counter", transport: "stdio", ...counterServerConfig(stateDir), env: leakMarkerEnv() },
    // Small delays keep the scenario quick; the clock decides when the cooldown is over.
    adapterOptionsOn(this.engine, {
      recovery: { initialDelayMs: 1, maxDelayMs: 20, maxAttempts: 2, cooldownMs: COOLDOWN_MS },
      now: () => clock.value,
    }),
  );
  this.onCleanup(() => adapter.disconnect());
  this.adapter = adapter;
  await adapter.connect();
  scenarios.set(this, { stateDir, clock });
});

Given("the server will refuse to start", function (this: AdapterWorld) {
  setCounterServerDown(scenarioOf(this).stateDir, true);
});

When("the server process is killed", async function (this: AdapterWorld) {
  process.kill(await serverPid(this.requireAdapter()), "SIGKILL");
});

When("the server process is killed while a slow write is running", async function (this: AdapterWorld) {
  const adapter = this.requireAdapter();
  const pid = await serverPid(adapter);
  const id = "slow-write";
  const pending = adapter.invoke("increment", { id, delayMs: 2_000 });
  process.kill(pid, "SIGKILL");
  scenarioOf(this).write = { id, result: await pending };
});

When("I read the counter", async function (this: AdapterWorld) {
  scenarioOf(this).read = await this.requireAdapter().invoke("read_count");
});

When("the server can start again and the cooldown is over", function (this: AdapterWorld) {
  const scenario = scenarioOf(this);
  setCounterServerDown(scenario.stateDir, false);
  scenario.clock.value += COOLDOWN_MS;
});

Then("the read succeeds", function (this: AdapterWorld) {
  const read = scenarioOf(this).read;
  assert.equal(read?.success, true, read?.error ?? "no read yet");
});

Then("the read fails as {string}", function (this: AdapterWorld, kind: string) {
  const read = scenarioOf(this).read;
  assert.equal(read?.success, false);
  assert.equal(read.errorKind, kind, read.error ?? "");
});

Then("the server is {string}", function (this: AdapterWorld, state: string) {
  assert.equal(this.requireAdapter().health.state, state);
});

Then(
  "the server is {string} again after {int} recovery/recoveries",
  function (this: AdapterWorld, state: string, recoveries: number) {
    const health = this.requireAdapter().health;
    assert.equal(health.state, state);
    assert.equal(health.recoveries, recoveries);
  },
);

Then("the write fails saying it may or may not have run", function (this: AdapterWorld) {
  const result = scenarioOf(this).write?.result;
  assert.equal(result?.success, false);
  assert.equal(result.errorKind, "outcome_unknown", result.error ?? "");
  assert.match(result.error ?? "", /may or may not have run/u);
});

Then("the server ran that write at most once", function (this: AdapterWorld) {
  const scenario = scenarioOf(this);
  const runs = readCounterState(scenario.stateDir).writes.filter((id) => id === scenario.write?.id);
  assert.ok(runs.length <= 1, `the write ran ${runs.length} times`);
});
