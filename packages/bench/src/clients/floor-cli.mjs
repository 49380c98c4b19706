// The least any Node CLI can do for `call`: a plain script (node builtins only, nothing to load)
// that spawns the stdio server named on its command line, sends initialize, the initialized
// notification and one tools/call, prints the answer, closes the server's stdin and exits when
// the server has. The cli-startup scenario runs it as the floor of `mcp-tool-adapter call`: its
// time is one Node bootstrap plus the server's own start-up and call.
//
//   node floor-cli.mjs <protocol version> <tool> <arguments JSON> <command> [args...]
import { spawn } from "node:child_process";

const [protocolVersion, tool, argumentsJson, command, ...args] = process.argv.slice(2);
const server = spawn(command, args, { stdio: ["pipe", "pipe", "ignore"] });
const waiting = new Map();
let buffered = "";
server.stdout.on("data", (chunk) => {
  buffered += chunk.toString();
  let newline = buffered.indexOf("\n");
  while (newline >= 0) {
    const message = JSON.parse(buffered.slice(0, newline));
    buffered = buffered.slice(newline + 1);
    // Answers only: a server's own notifications and requests have a method.
    if (message.method === undefined) waiting.get(message.id)?.(message);
    newline = buffered.indexOf("\n");
  }
});
const send = (message) => server.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
const request = (id, method, params) =>
  new Promise((resolve) => {
    waiting.set(id, resolve);
    send({ id, method, params });
  });

await request(1, "initialize", { protocolVersion, capabilities: {}, clientInfo: { name: "floor", version: "0" } });
send({ method: "notifications/initialized" });
const answer = await request(2, "tools/call", { name: tool, arguments: JSON.parse(argumentsJson) });
process.stdout.write(`${answer.result?.content?.[0]?.text ?? JSON.stringify(answer)}\n`);
server.stdin.end();
// A failed call fails the run (exit 1), so the floor cannot look fast by failing.
const failed = answer.error !== undefined || answer.result?.isError === true;
server.on("exit", (code) => (process.exitCode = failed ? 1 : (code ?? 1)));
