import { inferCapabilities } from "@mcp-tool-adapter/capability-inference";
import type { ToolCapabilities } from "@mcp-tool-adapter/registry";
import { canonicalJson } from "../tool-catalog.js";
import type { MCPToolDescriptor } from "../types.js";

/** The parts of a tool definition a pin covers, each as "sha256:<hex>" of its canonical JSON. */
export interface PinnedToolParts {
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: string;
  readonly outputSchema?: string;
  readonly annotations?: string;
}

/** What a lock file records for one approved tool. */
export interface PinnedToolDefinition {
  /** "sha256:<hex>" over every part and the capabilities: equal fingerprints, equal definitions. */
  readonly fingerprint: string;
  readonly parts: PinnedToolParts;
  /** Inferred from the tool's annotations and name when it was pinned (no config overrides). */
  readonly capabilities: ToolCapabilities;
}

/** The pinned tools of one server, by MCP tool name. */
export interface ServerToolPins {
  readonly tools: Readonly<Record<string, PinnedToolDefinition>>;
}

/** Fingerprints one discovered tool. Uses Web Crypto (Node, Deno, Bun and browsers all have it). */
export async function fingerprintTool(tool: MCPToolDescriptor): Promise<PinnedToolDefinition> {
  const { decidedBy: _decidedBy, ...capabilities } = inferCapabilities(tool.name, tool.annotations);
  const [title, description, inputSchema, outputSchema, annotations] = await Promise.all([
    tool.title === undefined ? undefined : sha256(canonicalJson(tool.title)),
    sha256(canonicalJson(tool.description)),
    sha256(canonicalJson(tool.inputSchema)),
    tool.outputSchema === undefined ? undefined : sha256(canonicalJson(tool.outputSchema)),
    tool.annotations === undefined ? undefined : sha256(canonicalJson(tool.annotations)),
  ]);
  const parts: PinnedToolParts = {
    ...(title === undefined ? {} : { title }),
    description,
    inputSchema,
    ...(outputSchema === undefined ? {} : { outputSchema }),
    ...(annotations === undefined ? {} : { annotations }),
  };
  const fingerprint = await sha256(canonicalJson({ parts, capabilities }));
  return { fingerprint, parts, capabilities };
}

/** Pins every tool of a listing (what `mcp-tool-adapter pin` writes for one server). */
export async function pinTools(tools: readonly MCPToolDescriptor[]): Promise<ServerToolPins> {
  const pinned = await Promise.all(tools.map(async (tool) => [tool.name, await fingerprintTool(tool)] as const));
  return { tools: Object.fromEntries(pinned.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) };
}

const PART_LABELS: Readonly<Record<keyof PinnedToolParts, string>> = {
  title: "title",
  description: "description",
  inputSchema: "input schema",
  outputSchema: "output schema",
  annotations: "annotations",
};

const CAPABILITY_LABELS = ["readOnly", "writes", "destructive", "idempotent", "openWorld"] as const;

/** What differs between a pin and a tool's current definition, in words ("description", "writes: false -> true", "destructive: unset -> true"). */
export function describePinChanges(pinned: PinnedToolDefinition, current: PinnedToolDefinition): string[] {
  const changes: string[] = [];
  for (const key of Object.keys(PART_LABELS) as (keyof PinnedToolParts)[]) {
    const before = pinned.parts[key];
    const after = current.parts[key];
    if (before === after) continue;
    const label = PART_LABELS[key];
    changes.push(before === undefined ? `${label} added` : after === undefined ? `${label} removed` : label);
  }
  for (const key of CAPABILITY_LABELS) {
    const before = pinned.capabilities[key];
    const after = current.capabilities[key];
    if (before !== after) changes.push(`${key}: ${before ?? "unset"} -> ${after ?? "unset"}`);
  }
  return changes;
}

async function sha256(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  let hex = "";
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, "0");
  return `sha256:${hex}`;
}
