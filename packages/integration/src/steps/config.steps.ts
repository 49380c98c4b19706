import { Given } from "@cucumber/cucumber";
import type { AdapterWorld } from "../support/world.js";

// Configs are built as plain objects: the invalid ones must reach the adapter's own validation.

Given("an MCP server config for {string} with stdio transport", function (this: AdapterWorld, name: string) {
  this.config = { name, transport: "stdio", command: "npx", args: ["-y", `@example/${name}-mcp-server`] };
});

Given(
  "an MCP server config for {string} with {word} transport and url {string}",
  function (this: AdapterWorld, name: string, transport: string, url: string) {
    this.config = { name, transport, url };
  },
);

Given(
  "an MCP server config for {string} with stdio transport but no command",
  function (this: AdapterWorld, name: string) {
    this.config = { name, transport: "stdio" };
  },
);

Given(
  "an MCP server config for {string} with {word} transport but no url",
  function (this: AdapterWorld, name: string, transport: string) {
    this.config = { name, transport };
  },
);
