// The least any Node client can do to connect many stdio servers: a plain script (node builtins
// only, nothing to load) that spawns each server, sends initialize over newline-delimited JSON,
// waits for the answer and sends the initialized notification; nothing else (no listing, no
// validation, no process families). The server-set scenario runs it as the floor of
// MCPServerSet.connect(): first each server alone, one after another, then all of them in
// parallel. Prints one JSON line: { soloConnectMs: number[], parallelConnectMs: number,
// parallelConnectCpuMs: number }.
// A server that fails to connect (exits, answers with an error, misses the deadline) fails the
// run (exit 1, the reason on stderr), so the floor cannot look fast by failing.
//
//   node floor-server-set.mjs <job JSON: { command, args, env, servers, connectTimeoutMs }>
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";

const PROTOCOL_VERSION = "2025-11-25";
const job = JSON.parse(process.argv[2] ?? "{}");
const names = Array.from({ length: job.servers }, (_, index) => `server${index}`);

/** Spawns one server and runs the handshake; resolves with the server once initialized is sent. */
function connect(name) {
  const server = spawn(job.command, job.args, {
    env: { PATH: process.env.PATH ?? "", ...job.env },
    stdio: ["pipe", "pipe", "ignore"],
  });
  return new Promise((resolve, reject) => {
    const fail = (why) => {
      clearTimeout(deadline);
      killFamily(server);
      reject(new Error(`${name}: ${why}`));
    };
    const deadline = setTimeout(
      () => fail(`no answer to initialize in ${job.connectTimeoutMs} ms`),
      job.connectTimeoutMs,
    );
    server.on("error", (error) => fail(`could not start ${job.command}: ${error.message}`));
    server.on("exit", (code, signal) => fail(`exited (${signal ?? code}) before answering initialize`));
    let buffered = "";
    server.stdout.on("data", (chunk) => {
      buffered += chunk.toString();
      let newline = buffered.indexOf("\n");
      while (newline >= 0) {
        const message = JSON.parse(buffered.slice(0, newline));
        buffered = buffered.slice(newline + 1);
        if (message.id === 1 && message.method === undefined) {
          clearTimeout(deadline);
          if (message.error !== undefined) return fail(`initialize failed: ${JSON.stringify(message.error)}`);
          server.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
          return resolve(server);
        }
        newline = buffered.indexOf("\n");
      }
    });
    server.stdin.on("error", () => undefined);
    const params = { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "floor", version: "0" } };
    server.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params })}\n`);
  });
}

/** The server and what it started (its children, read from /proc while it runs), sent SIGKILL. */
function killFamily(server) {
  let children = [];
  try {
    children = readFileSync(`/proc/${server.pid}/task/${server.pid}/children`, "utf8").split(" ").filter(Boolean);
  } catch {
    // Already gone, or never started: nothing of it left to read.
  }
  for (const pid of [...children.map(Number), server.pid]) {
    try {
      if (pid !== undefined) process.kill(pid, "SIGKILL");
    } catch {
      // Gone in the meantime.
    }
  }
}

/** Untimed: the server's family killed, and the server reaped. */
async function stop(server) {
  server.removeAllListeners("exit");
  const exited = server.exitCode !== null || server.signalCode !== null;
  const gone = exited ? Promise.resolve() : new Promise((resolve) => server.once("exit", resolve));
  killFamily(server);
  await gone;
}

async function measure() {
  const soloConnectMs = [];
  for (const name of names) {
    const started = performance.now();
    const server = await connect(name);
    soloConnectMs.push(performance.now() - started);
    await stop(server);
  }
  const cpu = process.cpuUsage();
  const started = performance.now();
  const connected = await Promise.allSettled(names.map(connect));
  const parallelConnectMs = performance.now() - started;
  const spent = process.cpuUsage(cpu);
  await Promise.all(connected.filter((each) => each.status === "fulfilled").map((each) => stop(each.value)));
  const failed = connected.filter((each) => each.status === "rejected");
  if (failed.length > 0) throw new Error(failed.map((each) => each.reason.message).join("\n"));
  return { soloConnectMs, parallelConnectMs, parallelConnectCpuMs: (spent.user + spent.system) / 1000 };
}

measure().then(
  (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
  (error) => {
    process.stderr.write(`floor-server-set: ${error.message}\n`);
    process.exitCode = 1;
  },
);
