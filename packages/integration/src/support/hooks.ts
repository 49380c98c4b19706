import { After, AfterAll, Status, setDefaultTimeout, setWorldConstructor } from "@cucumber/cucumber";
import { assertNoLeakedProcesses } from "./leak-check.js";
import { AdapterWorld } from "./world.js";

setWorldConstructor(AdapterWorld);

// Mock scenarios take milliseconds; real servers need a cold node start (many seconds on a loaded machine).
setDefaultTimeout(60_000);

// After hooks run in reverse order of definition: this one runs last, once the scenario's
// servers were stopped, and names (then kills) any process the scenario left behind.
After({ tags: "@real-server" }, async function () {
  await assertNoLeakedProcesses();
});

After(async function (this: AdapterWorld, { result }) {
  // On failure, keep what the scenario saw in the report: it is what explains the failure.
  if (result?.status === Status.FAILED) {
    const seen = {
      lastResult: this.lastResult,
      lastError: describeError(this.lastError),
      lastRegistryResult: this.lastRegistryResult,
    };
    this.attach(JSON.stringify(seen, null, 2), "application/json");
  }
  await this.cleanUp();
  // Cucumber's strict mode fails undefined and pending steps; a skipped scenario would
  // still pass the run, so it fails here: every scenario of this suite must run.
  if (result?.status === Status.SKIPPED)
    throw new Error("This scenario was skipped; the acceptance suite runs every scenario.");
});

// Whatever ran (mock scenarios included), the suite must end with no child process left.
AfterAll(async function () {
  await assertNoLeakedProcesses();
});

function describeError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  return { name: error.name, message: error.message, code: (error as { code?: unknown }).code };
}
