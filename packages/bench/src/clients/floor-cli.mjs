// The least any Node CLI can do for `call`: a plain script (node builtins only, nothing to load)
// that spawns the stdio server named on its command line, sends initialize, the initialized
// notification and one tools/call, prints the answer, closes the server's stdin and exits when
// the server has. The cli-startup scenario runs it as the floor of `mcp-tool-adapter call`: its
// time is one Node bootstrap plus the server's own start-up and call.
import { spawn } from "node:child_process";

const [command, ...args] = process.argv.slice(2);
const server = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
const waiting = new Map();
let buffered = "";
server.stdout.on("data", (chunk) => {
  buffered += chunk.toString();
  let newline = buffered.indexOf("\n");
  while (newline >= 0) {
    const message = JSON.parse(buffered.slice(0, newline));
    buffered = buffered.slice(newline + 1);
    waiting.get(message.id)?.(message);
    newline = buffered.indexOf("\n");
  }
});
const send = (message) => server.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
const request = (id, method, params) =>
  new Promise((resolve) => {
    waiting.set(id, resolve);
    send({ id, method, params });
  });

await request(1, "initialize", {
  protocolVersion: "2025-06-18",
  capabilities: {},
  clientInfo: { name: "floor", version: "0" },
});
send({ method: "notifications/initialized" });
const answer = await request(2, "tools/call", { name: "echo", arguments: { message: "hi" } });
process.stdout.write(`${answer.result?.content?.[0]?.text ?? JSON.stringify(answer)}\n`);
server.stdin.end();
server.on("exit", (code) => (process.exitCode = code ?? 1));
