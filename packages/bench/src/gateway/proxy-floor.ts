import { spawn } from "node:child_process";
import { startCpuReport } from "./cpu-report.js";

/**
 * The proxy floor: the least a Node process in the middle does. It forwards newline-delimited
 * JSON-RPC between its stdin/stdout (the client) and one stdio server it starts, parsing each
 * line, giving each client request an id of its own (and the answer its id back), and serializing
 * it again; the lines of one read leave in one write. No policy, no MCP handshake of its own, no
 * checks: what any Node gateway process costs per call, to set beside ours.
 */
interface FloorConfig {
  readonly upstream: { readonly command: string; readonly args: readonly string[] };
  readonly cpuReportPath?: string;
}

type Id = string | number;
interface Message {
  id?: Id;
  method?: string;
}

const config = JSON.parse(process.argv[2] ?? "{}") as FloorConfig;
const upstream = spawn(config.upstream.command, [...config.upstream.args], { stdio: ["pipe", "pipe", "ignore"] });
const cpu = startCpuReport(config.cpuReportPath);

/** The client's id of each request sent upstream, by the id it was sent with. */
const clientIds = new Map<number, Id>();
let nextId = 0;

/** Calls `each` for every whole line of `stream`, and writes what the lines of one read gave in one write. */
function forwardLines(
  stream: NodeJS.ReadableStream,
  to: NodeJS.WritableStream,
  each: (message: Message) => Message,
): void {
  let buffered = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    buffered += chunk;
    let out = "";
    let newline = buffered.indexOf("\n");
    while (newline !== -1) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line.trim() !== "") out += `${JSON.stringify(each(JSON.parse(line) as Message))}\n`;
      newline = buffered.indexOf("\n");
    }
    if (out !== "") to.write(out);
  });
}

forwardLines(process.stdin, upstream.stdin, (message) => {
  // A request (method and id): the upstream sees our id. A response to the upstream's own request passes as is.
  if (message.method === undefined || message.id === undefined) return message;
  const id = nextId++;
  clientIds.set(id, message.id);
  message.id = id;
  return message;
});
forwardLines(upstream.stdout, process.stdout, (message) => {
  if (message.method !== undefined || typeof message.id !== "number") return message;
  const id = clientIds.get(message.id);
  if (id === undefined) return message;
  clientIds.delete(message.id);
  message.id = id;
  return message;
});

process.stdin.once("end", () => {
  cpu.write();
  upstream.kill();
  process.exit(0);
});
