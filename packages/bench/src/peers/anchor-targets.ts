import { ratioAtLeast, ratioAtMost, type TargetVerdict } from "../figures.js";
import type { PeerSide } from "./sides.js";

type Verdict = (adapter: number, anchor: number, ratio: number) => TargetVerdict;

/** Issue 36's targets for our side against one anchor: per figure key, the verdict on the ratio (ours / anchor). */
export interface AnchorTargets {
  readonly anchor: PeerSide;
  /** Which transports the targets hold on. */
  readonly transports: readonly ("stdio" | "streamable-http")[];
  readonly figures: Readonly<Record<string, Verdict>>;
}

const BOTH = ["stdio", "streamable-http"] as const;

/**
 * Issue 36's targets, ratios in one run on the same Node. Against the AI SDK's client (the fastest
 * peer) every figure at most level; against the v2 Client the SDK-generation targets; against the
 * floor the cost of our features on a call; against the SDK 1.x Client the HTTP connect and the
 * listing's memory.
 */
export const ANCHOR_TARGETS: readonly AnchorTargets[] = [
  {
    anchor: "ai-sdk",
    transports: BOTH,
    figures: {
      "echo.p50": ratioAtMost(1.0, "ai-sdk"),
      "cpu.sequential": ratioAtMost(1.0, "ai-sdk"),
      "cpu.in-flight": ratioAtMost(1.0, "ai-sdk"),
      throughput: ratioAtLeast(1.0, "ai-sdk"),
      import: ratioAtMost(1.0, "ai-sdk"),
      heap: ratioAtMost(1.0, "ai-sdk"),
      list: ratioAtMost(1.0, "ai-sdk"),
      "list.rss": ratioAtMost(1.0, "ai-sdk"),
      connect: ratioAtMost(1.0, "ai-sdk"),
    },
  },
  {
    anchor: "raw-sdk-v2",
    transports: BOTH,
    figures: {
      "echo.p50": ratioAtMost(1.0, "raw-sdk-v2"),
      "cpu.sequential": ratioAtMost(0.8, "raw-sdk-v2"),
      "cpu.in-flight": ratioAtMost(0.8, "raw-sdk-v2"),
      throughput: ratioAtLeast(1.2, "raw-sdk-v2"),
      import: ratioAtMost(1.0, "raw-sdk-v2"),
      heap: ratioAtMost(1.0, "raw-sdk-v2"),
    },
  },
  {
    anchor: "floor",
    transports: BOTH,
    figures: { "cpu.in-flight": ratioAtMost(1.5, "floor"), "echo.p50": ratioAtMost(1.1, "floor") },
  },
  { anchor: "raw", transports: ["streamable-http"], figures: { connect: ratioAtMost(1.0, "raw") } },
  { anchor: "raw", transports: BOTH, figures: { "list.rss": ratioAtMost(1.0, "raw") } },
];

/** The anchors our side is judged against over `transport`, each with its figure targets. */
export function anchorTargetsFor(transport: "stdio" | "streamable-http"): AnchorTargets[] {
  return ANCHOR_TARGETS.filter((entry) => entry.transports.includes(transport));
}
