// A minimal MCP server over stdio for the cli-startup scenario: plain JavaScript, no SDK, so its
// own start-up is about Node's. It appends to the file in $STARTUP_PROBE_LOG one JSON line when
// its process started (performance.timeOrigin, epoch ms) and one when it exits, so the bench can
// place both on the clock of the process that spawned the CLI.
import { appendFileSync } from "node:fs";
import { createInterface } from "node:readline";

const log = process.env.STARTUP_PROBE_LOG;
const note = (event) => {
  if (log) appendFileSync(log, `${JSON.stringify({ event, at: performance.timeOrigin + performance.now() })}\n`);
};
if (log) appendFileSync(log, `${JSON.stringify({ event: "start", at: performance.timeOrigin })}\n`);

const TOOL = {
  name: "echo",
  description: "Echoes its message.",
  inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
};
const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
const answers = {
  initialize: (params) => ({
    protocolVersion: params?.protocolVersion ?? "2025-06-18",
    capabilities: { tools: {} },
    serverInfo: { name: "startup-probe", version: "1.0.0" },
  }),
  ping: () => ({}),
  "tools/list": () => ({ tools: [TOOL] }),
  "tools/call": (params) => ({ content: [{ type: "text", text: String(params?.arguments?.message ?? "") }] }),
};

createInterface({ input: process.stdin })
  .on("line", (line) => {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      return;
    }
    if (message.id === undefined || typeof message.method !== "string") return;
    const answer = answers[message.method];
    if (answer === undefined)
      send({ id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } });
    else send({ id: message.id, result: answer(message.params) });
  })
  .on("close", () => {
    note("exit");
    process.exit(0);
  });
