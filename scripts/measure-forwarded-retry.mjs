#!/usr/bin/env node
// Gateway CPU (user + system, from /proc/<pid>/stat) per retried tools/call of a 2025-era upstream's
// question, in a built tree: `node scripts/measure-forwarded-retry.mjs <tree> [calls] [warm-up]`.
// Three copies of the built gateway (createGateway + listenHttp, as `serve --http` runs them), each
// in its own process: A and B share a requestStateKey and each has its peerUrl; C has neither.
// - forwarded: the call asks through A, its retry goes to B, which passes it on to A (the holder)
//   and relays A's answer;
// - direct: the call asks through A, its retry goes to A itself;
// - plain: server-everything's echo through C (the one-copy 2026-07-28 path, nothing held).
// Prints one JSON line: CPU µs per call of each copy in each mode. Run it against two trees,
// alternating, to compare them; it measures the processes, so the machine's load moves it less
// than wall-clock time.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const META = "io.modelcontextprotocol/";
const KEY = "a-measurement-secret-both-copies-share-0123456789";
const TICK_US = 1e6 / 100; // /proc/<pid>/stat counts CPU time in clock ticks (USER_HZ, 100 on Linux)
let nextId = 0;

/** One gateway copy: serves until SIGTERM; prints its URL once it listens. */
async function host({ tree, port, peer, servers }) {
  const { createGateway, listenHttp } = await import(pathToFileURL(join(tree, "packages/gateway/dist/index.js")).href);
  const url = `http://127.0.0.1:${port}/mcp`;
  const gateway = createGateway({ servers, ...(peer ? { requestStateKey: KEY, peerUrl: url } : {}) });
  const report = await gateway.start();
  if (report.failed.length > 0) throw new Error(`upstreams failed: ${JSON.stringify(report.failed)}`);
  const http = await listenHttp(gateway, { port });
  process.stdout.write(`${http.url}\n`);
  process.once(
    "SIGTERM",
    () =>
      void http
        .close()
        .then(() => gateway.close())
        .finally(() => process.exit(0)),
  );
}

async function measure(tree, calls, warmUp) {
  const need = createRequire(join(tree, "packages/test-servers/package.json"));
  const everything = join(need.resolve("@modelcontextprotocol/server-everything/package.json"), "../dist/index.js");
  const eliciting = join(tree, "packages/test-servers/servers/eliciting-server.mjs");
  const servers = {
    reader: { transport: "stdio", command: process.execPath, args: [eliciting] },
    everything: { transport: "stdio", command: process.execPath, args: [everything, "stdio"] },
  };
  const copies = {};
  for (const [name, peer] of [
    ["A", true],
    ["B", true],
    ["C", false],
  ])
    copies[name] = await startHost({ tree, port: await freePort(), peer, servers });
  try {
    const modes = {
      forwarded: () => askAndRetry(copies.A.url, copies.B.url),
      direct: () => askAndRetry(copies.A.url, copies.A.url),
      plain: () => echo(copies.C.url),
    };
    const report = { tree, node: process.version, calls, warmUp };
    for (const [mode, once] of Object.entries(modes)) {
      for (let call = 0; call < warmUp; call += 1) await once();
      const before = Object.fromEntries(Object.entries(copies).map(([name, copy]) => [name, cpuOf(copy.pid)]));
      const started = process.hrtime.bigint();
      for (let call = 0; call < calls; call += 1) await once();
      const wallUs = Number(process.hrtime.bigint() - started) / 1e3 / calls;
      const perCall = {};
      for (const [name, copy] of Object.entries(copies)) {
        const after = cpuOf(copy.pid);
        perCall[name] = {
          user: Math.round(((after.user - before[name].user) * TICK_US) / calls),
          system: Math.round(((after.system - before[name].system) * TICK_US) / calls),
        };
      }
      report[mode] = { wallUs: Math.round(wallUs), cpuUsPerCall: perCall };
    }
    process.stdout.write(`${JSON.stringify(report)}\n`);
  } finally {
    for (const copy of Object.values(copies)) copy.child.kill("SIGTERM");
  }
}

async function askAndRetry(askAt, retryAt) {
  const asked = await call(askAt, "reader__look-up", { topic: "t" });
  if (asked.result?.resultType !== "input_required") throw new Error(`not asked: ${JSON.stringify(asked)}`);
  const key = Object.keys(asked.result.inputRequests)[0];
  const done = await call(
    retryAt,
    "reader__look-up",
    { topic: "t" },
    {
      requestState: asked.result.requestState,
      inputResponses: { [key]: { action: "accept", content: { name: "measured" } } },
    },
  );
  if (done.error !== undefined || done.result?.resultType === "input_required")
    throw new Error(`not answered: ${JSON.stringify(done)}`);
}

async function echo(url) {
  const done = await call(url, "everything__echo", { message: "m" });
  if (done.error !== undefined) throw new Error(`echo failed: ${JSON.stringify(done)}`);
}

async function call(url, name, args, extra = {}) {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": name,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: ++nextId,
      method: "tools/call",
      params: {
        name,
        arguments: args,
        _meta: {
          [`${META}protocolVersion`]: "2026-07-28",
          [`${META}clientInfo`]: { name: "measure", version: "1" },
          [`${META}clientCapabilities`]: { elicitation: { form: {} } },
        },
        ...extra,
      },
    }),
  });
  const text = await response.text();
  return JSON.parse(text.startsWith("{") ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? "{}"));
}

function cpuOf(pid) {
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { user: Number(fields[11]), system: Number(fields[12]) };
}

function startHost(config) {
  const child = spawn(process.execPath, [process.argv[1], "--host", JSON.stringify(config)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolvePromise, reject) => {
    child.once("exit", (code) => reject(new Error(`host exited (${code})`)));
    child.stdout.setEncoding("utf8").once("data", (line) => {
      resolvePromise({ child, pid: child.pid, url: line.trim() });
    });
  });
}

function freePort() {
  return new Promise((resolvePromise, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolvePromise(port));
    });
  });
}

if (process.argv[2] === "--host") await host(JSON.parse(process.argv[3]));
else await measure(resolve(process.argv[2] ?? "."), Number(process.argv[3] ?? 1500), Number(process.argv[4] ?? 500));
