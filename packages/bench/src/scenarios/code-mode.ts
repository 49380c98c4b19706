import { join } from "node:path";
import { createCodeMode } from "@mcp-tool-adapter/code-mode";
import { handleToolCall, toOpenAITools, type ToolSourceInput } from "@mcp-tool-adapter/model-tools";
import { createTempDirectory, memoryStdioServer } from "@mcp-tool-adapter/test-servers";
import { getEncoding } from "js-tiktoken";
import { MCPServerSet } from "mcp-tool-adapter";
import type { BenchContext } from "../context.js";
import { compared, single, type Figure } from "../figures.js";
import { median } from "../stats.js";
import type { CodeModeStartupJob, CodeModeStartupResult } from "../workers/code-mode-startup-worker.js";
import { runWorker } from "../workers/run-worker.js";

/** One side of the task: how many model requests it took and the tokens they carried. */
export interface CodeModeSide {
  readonly roundTrips: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly summary: string;
}

/** What the scripted model does at one step: call a tool, or answer. */
type ScriptedStep = { readonly tool: string; readonly args: Record<string, unknown> } | { readonly answer: string };

const SEEDED_PEOPLE = 30;
const USER_PROMPT =
  "Remember that Ada Lovelace (person) wrote the first program, Charles Babbage (person) designed the Analytical Engine (machine), Ada worked with Babbage and Babbage designed the Engine; add that Ada was born in 1815. Then tell me how many entities and relations you remember and who has the most observations.";
const NEW_ENTITIES = [
  { name: "Ada Lovelace", entityType: "person", observations: ["wrote the first program"] },
  { name: "Charles Babbage", entityType: "person", observations: ["designed the Analytical Engine"] },
  { name: "Analytical Engine", entityType: "machine", observations: ["mechanical general-purpose computer"] },
];
const NEW_RELATIONS = [
  { from: "Ada Lovelace", to: "Charles Babbage", relationType: "worked with" },
  { from: "Charles Babbage", to: "Analytical Engine", relationType: "designed" },
];
const NEW_OBSERVATIONS = [{ entityName: "Ada Lovelace", contents: ["born in 1815"] }];

/** The program the scripted model writes in code mode: the same four calls, then the summary. */
const PROGRAM = `
await memory.create_entities({ entities: ${JSON.stringify(NEW_ENTITIES)} });
await memory.create_relations({ relations: ${JSON.stringify(NEW_RELATIONS)} });
await memory.add_observations({ observations: ${JSON.stringify(NEW_OBSERVATIONS)} });
const graph: any = await memory.read_graph();
const entities = graph.entities ?? [];
const most = entities.reduce((best: any, entity: any) => (entity.observations.length > best.observations.length ? entity : best), entities[0]);
return { entities: entities.length, relations: (graph.relations ?? []).length, mostObservations: most.name };
`;

/**
 * Issue 35's measured saving: one task on a real server-memory (already holding a graph of
 * people), done by a scripted model through direct tool calls and through code mode's one tool.
 * Both sides speak the OpenAI chat format through model-tools (`toOpenAITools`, `handleToolCall`);
 * each model request's input is its tool definitions plus the messages so far, its output the
 * assistant message, counted with the o200k_base tokenizer. Counts, not times: one run suffices.
 */
export async function runCodeModeScenario(context: BenchContext): Promise<Figure[]> {
  const group = `code mode: a chained server-memory task (${SEEDED_PEOPLE} people already remembered), scripted model, OpenAI chat format`;
  context.progress(`${group}: direct tool calls`);
  const direct = await withSeededMemory((servers) =>
    converse(servers, [
      { tool: "memory__create_entities", args: { entities: NEW_ENTITIES } },
      { tool: "memory__create_relations", args: { relations: NEW_RELATIONS } },
      { tool: "memory__add_observations", args: { observations: NEW_OBSERVATIONS } },
      { tool: "memory__read_graph", args: {} },
      { answer: "summary" },
    ]),
  );
  context.progress(`${group}: code mode`);
  const code = await withSeededMemory(async (servers) => {
    const codeMode = await createCodeMode(servers);
    try {
      return await converse(codeMode.registry, [{ tool: "code__run", args: { code: PROGRAM } }, { answer: "summary" }]);
    } finally {
      codeMode.close();
    }
  });
  if (direct.summary !== code.summary) {
    throw new Error(`${group}: the two sides disagree: direct ${direct.summary}, code mode ${code.summary}`);
  }
  const figure = (id: string, label: string, value: number, note?: string): Figure =>
    single({ id: `code-mode.${id}`, group, label, unit: "count", value, ...(note === undefined ? {} : { note }) });
  return [
    ...(await startupFigures(context)),
    figure("direct.round-trips", "direct tool calls: model requests", direct.roundTrips),
    figure("code.round-trips", "code mode: model requests", code.roundTrips),
    figure("direct.input-tokens", "direct tool calls: input tokens, all requests", direct.inputTokens),
    figure(
      "code.input-tokens",
      "code mode: input tokens, all requests",
      code.inputTokens,
      "the run-code tool's description carries the API's declarations",
    ),
    figure("direct.output-tokens", "direct tool calls: output tokens, all requests", direct.outputTokens),
    figure(
      "code.output-tokens",
      "code mode: output tokens, all requests",
      code.outputTokens,
      "the program is the model's output",
    ),
    single({
      id: "code-mode.input-token-ratio",
      group,
      label: "input tokens, code mode / direct",
      unit: "×",
      value: code.inputTokens / direct.inputTokens,
    }),
  ];
}

const STARTUP_RUNS = { default: 8, quick: 3 } as const;

/**
 * Start-up: each side in a fresh process (run from source, as the bench runs: the sandbox worker
 * registers tsx, which a built install skips), its first run and the median of the rest. The
 * "worker per run" side is keepWarmMs 0, what every run cost before the warm worker.
 */
async function startupFigures(context: BenchContext): Promise<Figure[]> {
  const group =
    "code mode: start-up of a one-call program (fresh process per side; CPU is the whole process's, worker threads included)";
  const runs = STARTUP_RUNS[context.settings.name];
  const side = async (keepWarmMs: number): Promise<{ first: Cost; later: Cost }> => {
    context.progress(`${group}: keepWarmMs ${keepWarmMs}`);
    const job: CodeModeStartupJob = { keepWarmMs, runs };
    const result = await runWorker<CodeModeStartupResult>("code-mode-startup-worker.ts", job);
    const [first, ...later] = result.runs;
    if (first === undefined || later.length === 0) throw new Error(`${group}: too few runs`);
    return {
      first,
      later: { wallMs: median(later.map((run) => run.wallMs)), cpuMs: median(later.map((run) => run.cpuMs)) },
    };
  };
  const perRun = await side(0);
  const warm = await side(30_000);
  const pair = (id: string, label: string, ours: number, before: number, note: string): Figure =>
    compared({ id: `code-mode.startup.${id}`, group, label, unit: "ms", adapter: ours, raw: before, note });
  const sides = "warm worker (default) vs a worker per run (keepWarmMs 0)";
  return [
    pair("first.wall", "first run, wall", warm.first.wallMs, perRun.first.wallMs, sides),
    pair("first.cpu", "first run, CPU", warm.first.cpuMs, perRun.first.cpuMs, sides),
    pair("later.wall", `later runs (median of ${runs - 1}), wall`, warm.later.wallMs, perRun.later.wallMs, sides),
    pair("later.cpu", `later runs (median of ${runs - 1}), CPU`, warm.later.cpuMs, perRun.later.cpuMs, sides),
  ];
}

interface Cost {
  readonly wallMs: number;
  readonly cpuMs: number;
}

/** A fresh server-memory per side, seeded with the same graph, closed after. */
async function withSeededMemory<T>(use: (servers: MCPServerSet) => Promise<T>): Promise<T> {
  const temp = await createTempDirectory("bench-code-mode-");
  const servers = new MCPServerSet({
    memory: { transport: "stdio", ...memoryStdioServer(join(temp.path, "memory.jsonl")) },
  });
  try {
    const report = await servers.connect();
    if (!report.ok) throw new Error("code-mode scenario: server-memory did not connect");
    const people = Array.from({ length: SEEDED_PEOPLE }, (_, index) => ({
      name: `Person ${index + 1}`,
      entityType: "person",
      observations: [`works on project ${index % 7}`, `joined in ${2000 + (index % 20)}`],
    }));
    const seeded = await servers.getAdapter("memory")?.invoke("create_entities", { entities: people });
    if (seeded?.success !== true)
      throw new Error(`code-mode scenario: seeding failed (${seeded?.error ?? "no adapter"})`);
    return await use(servers);
  } finally {
    await servers.close();
    await temp.remove();
  }
}

/** Plays the script against the source, as an agent loop would, counting requests and tokens. */
async function converse(source: ToolSourceInput, script: readonly ScriptedStep[]): Promise<CodeModeSide> {
  const encoding = getEncoding("o200k_base");
  const tools = toOpenAITools(source);
  const messages: unknown[] = [{ role: "user", content: USER_PROMPT }];
  let inputTokens = 0;
  let outputTokens = 0;
  let lastToolText = "";
  for (const [index, step] of script.entries()) {
    inputTokens += encoding.encode(JSON.stringify({ tools, messages })).length;
    if ("answer" in step) {
      const answer = { role: "assistant", content: `Done. ${summaryOf(lastToolText)}` };
      outputTokens += encoding.encode(JSON.stringify(answer)).length;
      return { roundTrips: index + 1, inputTokens, outputTokens, summary: summaryOf(lastToolText) };
    }
    const call = { id: `call-${index + 1}`, name: step.tool, arguments: JSON.stringify(step.args) };
    const assistant = {
      role: "assistant",
      tool_calls: [{ id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } }],
    };
    outputTokens += encoding.encode(JSON.stringify(assistant)).length;
    const answer = await handleToolCall(source, call, { format: "openai-chat" });
    if (answer.content.startsWith("Error"))
      throw new Error(`code-mode scenario: ${step.tool} failed: ${answer.content}`);
    lastToolText = answer.content;
    messages.push(assistant, answer);
  }
  throw new Error("code-mode scenario: the script ended without an answer");
}

/** What the model concludes from the last tool result: entity and relation counts, the busiest entity. */
function summaryOf(toolText: string): string {
  const parsed = JSON.parse(toolText) as {
    entities: number | { name: string; observations: string[] }[];
    relations: number | unknown[];
    mostObservations?: string;
  };
  if (typeof parsed.entities === "number") {
    return `${parsed.entities} entities, ${String(parsed.relations)} relations; most observations: ${parsed.mostObservations ?? "?"}`;
  }
  const most = parsed.entities.reduce((best, entity) =>
    entity.observations.length > best.observations.length ? entity : best,
  );
  return `${parsed.entities.length} entities, ${(parsed.relations as unknown[]).length} relations; most observations: ${most.name}`;
}
