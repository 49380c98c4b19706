/**
 * The sides of the engine comparison (issue 21): the SDK v2 Client (`@modelcontextprotocol/client`)
 * as the baseline, the adapter on `@mcp-tool-adapter/engine-2026`, and the adapter on its default
 * engine (SDK 1.x), all against the bench's v2 server. A side speaks one era, and so talks to the
 * server that serves it: the modern-only server for 2026-07-28 (a server no 2025 client can use),
 * the dual-era one for 2025.
 */
export type EngineSide = "raw-v2" | "engine-2026" | "default-engine" | "raw-v2-2025" | "engine-2026-2025";

export type EngineEra = "2026-07-28" | "2025";

export interface EngineSideInfo {
  readonly side: EngineSide;
  readonly label: string;
  readonly era: EngineEra;
  /** The npm packages the side loads (their versions go into the report). */
  readonly packages: readonly string[];
  /** What the side calls, in a few words. */
  readonly call: string;
}

export const ENGINE_BASELINE: EngineSide = "raw-v2";

export const ENGINE_SIDES: readonly EngineSideInfo[] = [
  {
    side: "raw-v2",
    label: "raw v2 Client, 2026-07-28",
    era: "2026-07-28",
    packages: ["@modelcontextprotocol/client"],
    call: "Client.listTools() once, then callTool({ name, arguments }); versionNegotiation pinned to 2026-07-28",
  },
  {
    side: "engine-2026",
    label: "adapter + engine-2026, 2026-07-28",
    era: "2026-07-28",
    packages: ["@mcp-tool-adapter/adapter", "@mcp-tool-adapter/engine-2026", "@modelcontextprotocol/client"],
    call: 'MCPToolAdapter({ protocol: "2026-07-28" }, { engine: createEngine2026() }).invoke(name, args)',
  },
  {
    side: "default-engine",
    label: "adapter + default engine, 2025",
    era: "2025",
    packages: ["mcp-tool-adapter", "@modelcontextprotocol/sdk"],
    call: 'mcp-tool-adapter\'s MCPToolAdapter({ protocol: "2025" }).invoke(name, args)',
  },
  {
    side: "raw-v2-2025",
    label: "raw v2 Client, 2025",
    era: "2025",
    packages: ["@modelcontextprotocol/client"],
    call: 'Client.listTools() once, then callTool({ name, arguments }); versionNegotiation "legacy"',
  },
  {
    side: "engine-2026-2025",
    label: "adapter + engine-2026, 2025",
    era: "2025",
    packages: ["@mcp-tool-adapter/adapter", "@mcp-tool-adapter/engine-2026", "@modelcontextprotocol/client"],
    call: 'MCPToolAdapter({ protocol: "2025" }, { engine: createEngine2026() }).invoke(name, args)',
  },
];

export const ENGINE_SIDE_NAMES: readonly EngineSide[] = ENGINE_SIDES.map((info) => info.side);

/** What runs without --engine-sides: the three sides issue 21 asks for. */
export const DEFAULT_ENGINE_SIDES: readonly EngineSide[] = ["raw-v2", "engine-2026", "default-engine"];

export function engineSideInfo(side: EngineSide): EngineSideInfo {
  const info = ENGINE_SIDES.find((candidate) => candidate.side === side);
  if (info === undefined) throw new RangeError(`unknown engine side "${side}"`);
  return info;
}

/** The sides to run, in table order, the baseline always among them. */
export function engineSidesToRun(wanted: readonly EngineSide[] = DEFAULT_ENGINE_SIDES): EngineSide[] {
  return ENGINE_SIDE_NAMES.filter((side) => side === ENGINE_BASELINE || wanted.includes(side));
}
