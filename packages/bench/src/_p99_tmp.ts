import { PerformanceObserver } from "node:perf_hooks";
import { ToolRegistry } from "@mcp-tool-adapter/registry";
import { createToolIndex } from "@mcp-tool-adapter/tool-search";
import { distractorTool } from "./servers/distractor-tools.js";
const Q = ["create an invoice for a customer","list overdue invoices","update the customer 42","approve pending expense claims","search payroll runs","read a file from disk","find open issues in a repository"];
const registry = new ToolRegistry();
for (let n = 0; n < 10; n++) registry.replaceNamespace(`server${n}`, Array.from({ length: 500 }, (_, i) => { const t = distractorTool(n * 500 + i); return { name: t.name, description: t.description ?? "", inputSchema: t.inputSchema, capabilities: { readOnly: false, writes: true }, source: "mcp" as const, sourceMetadata: {}, checkpointable: false, handler: () => ({ success: true, data: null }) }; }));
const index = createToolIndex(registry);
const gcs: { start: number; end: number }[] = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) gcs.push({ start: e.startTime, end: e.startTime + e.duration }); }).observe({ entryTypes: ["gc"] });
const samples: { start: number; ms: number; round: number }[] = [];
for (let round = 0; round < 200; round++) for (const q of Q) { const s = performance.now(); index.search(q, { limit: 8 }); samples.push({ start: s, ms: performance.now() - s, round }); }
await new Promise((r) => setTimeout(r, 100));
const sorted = [...samples].sort((a, b) => a.ms - b.ms);
const p = (x: number) => sorted[Math.min(sorted.length - 1, Math.floor(x * sorted.length))]!.ms;
const slow = samples.filter((s) => s.ms >= p(0.99));
const withGc = slow.filter((s) => gcs.some((g) => g.start < s.start + s.ms && g.end > s.start));
const gcTotal = (s: { start: number; ms: number }) => gcs.filter((g) => g.start < s.start + s.ms && g.end > s.start).reduce((t, g) => t + (Math.min(g.end, s.start + s.ms) - Math.max(g.start, s.start)), 0);
console.log(JSON.stringify({ p50: p(0.5), p99: p(0.99), slowest: sorted.slice(-15).map((s) => ({ ms: +s.ms.toFixed(2), round: s.round, gcMs: +gcTotal(s).toFixed(2) })), slowCount: slow.length, slowWithGc: withGc.length, firstRoundMs: samples.filter((s) => s.round === 0).map((s) => +s.ms.toFixed(2)), gcCount: gcs.length, cpuUser: process.cpuUsage().user / 1000 }));
