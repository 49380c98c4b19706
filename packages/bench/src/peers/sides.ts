/**
 * The sides of the peer comparison (issue 17): the raw SDK Client as the baseline, the SDK v2
 * Client as a second raw side and a floor client (issue 36), our umbrella package (calling
 * without a prior discovery, and after one), and the MCP clients of the agent frameworks users
 * compare us with. Each runs alone in a fresh Node process per round.
 */
export type PeerSide =
  | "raw"
  | "raw-sdk-v2"
  | "floor"
  | "adapter"
  | "adapter-discovered"
  | "adapter-sdk-v1"
  | "langchain"
  | "openai-agents"
  | "mastra"
  | "ai-sdk";

/** The side every figure is also given as a ratio to: the least a Node client can do. */
export const FLOOR_SIDE: PeerSide = "floor";

export interface PeerSideInfo {
  readonly side: PeerSide;
  /** How the side is named in tables. */
  readonly label: string;
  /** The npm packages the side loads (their versions go into the report). */
  readonly packages: readonly string[];
  /** The lowest Node major the side's current version runs on (its `engines`). */
  readonly minNodeMajor: number;
  /** What the side calls, in a few words, for the method section of the table. */
  readonly call: string;
}

export const PEER_SIDES: readonly PeerSideInfo[] = [
  {
    side: "raw",
    label: "raw SDK Client",
    packages: ["@modelcontextprotocol/sdk"],
    minNodeMajor: 20,
    call: "Client.callTool({ name, arguments })",
  },
  {
    side: "raw-sdk-v2",
    label: "raw v2 Client",
    packages: ["@modelcontextprotocol/client"],
    minNodeMajor: 20,
    call: "v2 Client.callTool({ name, arguments }), version negotiated (2025 server)",
  },
  {
    side: "floor",
    label: "floor",
    packages: [],
    minNodeMajor: 20,
    call: "newline-delimited JSON over the pipe with one map of pending ids (HTTP: one fetch per call); no validation, no classification",
  },
  {
    side: "adapter",
    label: "mcp-tool-adapter",
    packages: ["mcp-tool-adapter"],
    minNodeMajor: 20,
    call: "MCPToolAdapter.invoke(name, args), no discoverTools() first",
  },
  {
    side: "adapter-discovered",
    label: "mcp-tool-adapter, discovered",
    packages: ["mcp-tool-adapter"],
    minNodeMajor: 20,
    call: "MCPToolAdapter.invoke(name, args) after discoverTools()",
  },
  {
    side: "adapter-sdk-v1",
    label: "mcp-tool-adapter, SDK 1.x engine",
    packages: ["mcp-tool-adapter"],
    minNodeMajor: 20,
    call: 'MCPToolAdapter.invoke(name, args) with engine: "sdk-v1" (the SDK 1.x Client under the adapter)',
  },
  {
    side: "langchain",
    label: "LangChain",
    packages: ["@langchain/mcp-adapters", "@langchain/core"],
    minNodeMajor: 20,
    call: "MultiServerMCPClient.getTools(), then tool.invoke(args)",
  },
  {
    side: "openai-agents",
    label: "OpenAI Agents",
    packages: ["@openai/agents-core", "@modelcontextprotocol/client"],
    minNodeMajor: 22,
    call: "MCPServerStdio / MCPServerStreamableHttp .callTool(name, args), on the v2 Client",
  },
  {
    side: "mastra",
    label: "Mastra",
    packages: ["@mastra/mcp", "@mastra/core"],
    minNodeMajor: 22,
    call: "MCPClient.listTools(), then tool.execute(args)",
  },
  {
    side: "ai-sdk",
    label: "AI SDK",
    packages: ["@ai-sdk/mcp"],
    minNodeMajor: 22,
    call: "createMCPClient(...).callTool({ name, arguments })",
  },
];

export const PEER_SIDE_NAMES: readonly PeerSide[] = PEER_SIDES.map((info) => info.side);

export function peerSideInfo(side: PeerSide): PeerSideInfo {
  const info = PEER_SIDES.find((candidate) => candidate.side === side);
  if (info === undefined) throw new RangeError(`unknown peer side "${side}"`);
  return info;
}

/** The sides that run on Node `major`, in table order; the raw baseline always runs. */
export function sidesRunnableOn(major: number, wanted: readonly PeerSide[] = PEER_SIDE_NAMES): PeerSide[] {
  return PEER_SIDES.filter(
    (info) => (info.side === "raw" || wanted.includes(info.side)) && info.minNodeMajor <= major,
  ).map((info) => info.side);
}
