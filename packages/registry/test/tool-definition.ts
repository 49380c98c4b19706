import type { ToolDefinition } from "../src/index.js";

/** A valid local tool definition; a test overrides only what it is about. */
export function toolDefinition(name: string, fields: Partial<ToolDefinition> = {}): ToolDefinition {
  return {
    name,
    description: `the ${name} tool`,
    inputSchema: { type: "object", properties: { text: { type: "string" } } },
    capabilities: { readOnly: true, writes: false },
    source: "local",
    sourceMetadata: { origin: "test" },
    checkpointable: true,
    handler: (args) => ({ success: true, data: { tool: name, args } }),
    ...fields,
  };
}
