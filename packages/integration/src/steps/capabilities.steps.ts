import * as assert from "node:assert/strict";
import { Then, When } from "@cucumber/cucumber";
import { MCPToolAdapter } from "mcp-tool-adapter";
import type { AdapterWorld } from "../support/world.js";

When("I infer capabilities for tool name {string}", function (this: AdapterWorld, name: string) {
  this.inferred = MCPToolAdapter.inferCapabilities(name);
});

Then(
  /^the inferred capabilities should have (read_only|writes) (true|false)$/,
  function (this: AdapterWorld, field: string, value: string) {
    assert.ok(
      this.inferred !== undefined,
      "No inferred capabilities: a 'When I infer capabilities ...' step must run first.",
    );
    const actual = field === "read_only" ? this.inferred.readOnly : this.inferred.writes;
    assert.equal(actual, value === "true", `Inferred: ${JSON.stringify(this.inferred)}`);
  },
);
