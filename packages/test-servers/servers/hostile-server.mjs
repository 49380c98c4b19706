#!/usr/bin/env node
/**
 * hostile-server.mjs: an MCP stdio server that misbehaves on command, for reliability tests.
 * Plain ESM run directly by node (no build); its only dependency is the MCP SDK.
 *
 * Startup flags (argv):
 *   --exit-at-start            print an error to stderr and exit with code 3 before reading anything
 *   --never-initialize         read stdin but never answer anything; keeps running after stdin closes
 *                              (the client has to kill it), bounded by --max-lifetime-ms
 *   --ignore-sigterm           ignore SIGTERM, so only SIGKILL stops it (tests a transport's kill escalation)
 *   --spawn-grandchild         start a long-lived grandchild process (same process group, stdio ignored),
 *                              print `grandchild-pid=N` to stderr, then serve normally
 *   --spawn-grandchild-and-exit  start the grandchild, print `grandchild-pid=N`, then exit 0 without serving
 *   --spawn-grandchild-and-crash start the grandchild, print `grandchild-pid=N`, then kill itself with SIGKILL
 *   --exit-after-grandchild-ms=N with the two above: exit (or crash) N ms after starting the grandchild (default 0)
 *   --grandchild-holds-stdio   the grandchild inherits this server's stdout and stderr, so the pipes stay
 *                              open after this server dies (a client waiting for EOF waits forever)
 *   --grandchild-lifetime-ms=N the grandchild ends itself after N ms (default 120000) so a failed test
 *                              cannot leak it forever; orphan checks run long before that
 *   --grandchild-style=STYLE   how the grandchild is started (also for the spawn-grandchild-and-exit tool):
 *                              `plain` (default) a child of this server with its environment;
 *                              `daemon` daemonized: started through an intermediate process that runs it
 *                              in a new session (setsid) and exits, so it is re-parented at once and
 *                              shares neither parent, group nor session with this server (it keeps the
 *                              environment; --grandchild-holds-stdio does not apply);
 *                              `scrubbed-env` a child of this server started with an empty environment;
 *                              `new-group` a child of this server that moves to a process group of its
 *                              own (setpgid through perl, which Debian and Ubuntu always have) and stays
 *                              in this server's session, keeping the environment
 *   --garbage-at-start         write non-JSON lines and invalid JSON-RPC messages to stdout before serving
 *   --stderr-flood=BYTES       write BYTES bytes to stderr at start (tests a bounded stderr buffer)
 *   --tools=N                  list N generated echo tools `tool_0` .. `tool_{N-1}` instead of the standard ones
 *   --page-size=M              serve tools/list in pages of M (cursor = next offset); default: one page
 *   --bad-names                list tools with hostile names: `../x`, `a/b`, ``, a 10 KB name, names with
 *                              control characters, `__proto__`, `constructor`, plus a normal `ok_tool`
 *   --bad-schemas              list tools with hostile input schemas: `remote_ref` (a `$ref` to
 *                              https://example.invalid/x.json), `recursive_ref` (a legal recursive local
 *                              `$ref`), `ref_loop` (local `$ref`s that point at each other forever),
 *                              `invalid_schema` (`{type: 42}`, nested under a property because the SDK
 *                              client rejects a whole listing whose top-level type is not "object"),
 *                              plus a normal `ok_tool`
 *   --max-lifetime-ms=N        exit after N ms whatever happens (default 300000): a safety net, not a feature
 *
 * Listing flags (--tools, --bad-names, --bad-schemas) replace the standard listing; every tool
 * below stays callable whatever is listed, and any listed tool not named below echoes.
 *
 * Tools (always callable):
 *   echo                       answers one text item with the JSON of its arguments
 *   crash {grandchild?}        process.exit(1) while the call is in flight (never answers); with
 *                              `grandchild: true` it first starts a grandchild (printing `grandchild-pid=N`)
 *   exit {code?}               answers "exiting", then exits with `code` (default 0) once the answer is out
 *   hang                       never answers
 *   slow {ms, steps?}          answers after `ms` ms (default 1000); when the request carries a
 *                              progressToken, sends progress 1..`steps` (default 5), one at the start
 *                              of each of `steps` equal waits
 *   garbage                    writes non-JSON lines and invalid JSON-RPC messages to stdout, then echoes
 *   huge {mb}                  answers one text item of `mb` megabytes (default 20)
 *   proto {placement?}         answers content and structuredContent with `__proto__` and `constructor`
 *                              as own JSON keys (the line is written raw so the keys survive). By default
 *                              structuredContent itself has own `__proto__` and `constructor` keys (the
 *                              SDK client's result validation rejects that as not a plain record);
 *                              `placement: "nested"` puts them one level down only, which passes the
 *                              SDK and reaches the caller
 *   error                      answers a tool-level error (isError: true)
 *   throw                      answers a JSON-RPC error (code -32603)
 *   spawn-grandchild           starts a grandchild, answers `{"grandchildPid":N}` and keeps serving
 *   spawn-grandchild-and-exit  starts a grandchild, answers `{"grandchildPid":N}`, then exits 0
 *   pid                        answers `{"pid":N,"pgid":N,"sid":N}` (pgid and sid read from /proc; null where
 *                              unavailable)
 *   env {name}                 answers `{"name":..,"present":bool,"value":..}` for ONE variable (never the
 *                              whole environment)
 *   argv                       answers the JSON array of this process's arguments after the script path
 *   stderr {text}              writes `text` to stderr, then answers "ok"
 */
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import process from "node:process";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";

const argv = process.argv.slice(2);
const hasFlag = (name) => argv.includes(`--${name}`);
const numberFlag = (name, fallback) => {
  const arg = argv.find((a) => a.startsWith(`--${name}=`));
  if (arg === undefined) return fallback;
  const value = Number(arg.slice(name.length + 3));
  return Number.isFinite(value) ? value : fallback;
};

const stringFlag = (name, fallback) => {
  const arg = argv.find((a) => a.startsWith(`--${name}=`));
  return arg === undefined ? fallback : arg.slice(name.length + 3);
};

const GRANDCHILD_LIFETIME_MS = numberFlag("grandchild-lifetime-ms", 120_000);
const GRANDCHILD_STYLE = stringFlag("grandchild-style", "plain");
if (!["plain", "daemon", "scrubbed-env", "new-group"].includes(GRANDCHILD_STYLE)) {
  process.stderr.write(`hostile-server: unknown --grandchild-style=${GRANDCHILD_STYLE}\n`);
  process.exit(2);
}

const lifetime = setTimeout(() => process.exit(0), numberFlag("max-lifetime-ms", 300_000));
// Only the never-initialize mode is kept alive by this timer; elsewhere stdin decides.
if (!hasFlag("never-initialize")) lifetime.unref();

if (hasFlag("ignore-sigterm")) process.on("SIGTERM", () => undefined);

const GRANDCHILD_SCRIPT = `setInterval(() => {}, 1000); setTimeout(() => process.exit(0), ${GRANDCHILD_LIFETIME_MS});`;

// The classic double fork: the intermediate starts the grandchild detached (setsid), prints its
// pid and exits, so the grandchild is an orphan in a session of its own from the start.
const DAEMONIZE_SCRIPT = `
  const { spawn } = require("node:child_process");
  const child = spawn(process.execPath, ["-e", ${JSON.stringify(GRANDCHILD_SCRIPT)}], { detached: true, stdio: "ignore" });
  child.unref();
  process.stdout.write(String(child.pid));
`;

function startGrandchild() {
  if (GRANDCHILD_STYLE === "daemon") {
    const intermediate = spawnSync(process.execPath, ["-e", DAEMONIZE_SCRIPT], {
      stdio: ["ignore", "pipe", "inherit"],
      encoding: "utf8",
    });
    return Number(intermediate.stdout);
  }
  const holdStdio = hasFlag("grandchild-holds-stdio");
  // perl execs node in place after setpgid(0, 0): the grandchild keeps this pid, our session and environment.
  const [command, args] =
    GRANDCHILD_STYLE === "new-group"
      ? ["perl", ["-e", "setpgrp(0, 0) or die $!; exec @ARGV or die $!", process.execPath, "-e", GRANDCHILD_SCRIPT]]
      : [process.execPath, ["-e", GRANDCHILD_SCRIPT]];
  const child = spawn(command, args, {
    stdio: ["ignore", holdStdio ? "inherit" : "ignore", holdStdio ? "inherit" : "ignore"],
    ...(GRANDCHILD_STYLE === "scrubbed-env" ? { env: {} } : {}),
  });
  // The grandchild must outlive us, so nothing here waits for it.
  child.unref();
  return child.pid;
}

function spawnGrandchild() {
  const pid = startGrandchild();
  process.stderr.write(`grandchild-pid=${pid}\n`);
  return pid;
}

function writeGarbage() {
  const lines = [
    "this is not json at all",
    "{",
    "",
    "[]",
    '{"jsonrpc":"2.0"}',
    '{"jsonrpc":"1.0","method":"tools/list","id":1}',
    '{"jsonrpc":"2.0","id":"hostile-unknown-id","result":{}}',
    '{"jsonrpc":"2.0","method":"notifications/hostile_unknown","params":{}}',
    "\u0000\u0001\u0002 control characters \u001b[31m",
    '"just a string"',
    "12345",
  ];
  process.stdout.write(lines.join("\n") + "\n");
}

function readGroupAndSession() {
  try {
    // /proc/self/stat: "pid (comm) state ppid pgrp session ..." and comm may contain spaces or parentheses.
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { pgid: Number(fields[2]), sid: Number(fields[3]) };
  } catch {
    return { pgid: null, sid: null };
  }
}

const text = (value) => ({
  content: [{ type: "text", text: typeof value === "string" ? value : JSON.stringify(value) }],
});
const objectSchema = (properties = {}, required) => ({
  type: "object",
  properties,
  ...(required ? { required } : {}),
});

const STANDARD_TOOLS = [
  {
    name: "echo",
    description: "Echoes its arguments as JSON text.",
    inputSchema: { type: "object", additionalProperties: true },
  },
  {
    name: "crash",
    description: "Exits the server process mid-call, optionally starting a grandchild first.",
    inputSchema: objectSchema({ grandchild: { type: "boolean" } }),
  },
  {
    name: "exit",
    description: "Answers, then exits with code.",
    inputSchema: objectSchema({ code: { type: "integer" } }),
  },
  { name: "hang", description: "Never answers.", inputSchema: objectSchema() },
  {
    name: "slow",
    description: "Answers after ms milliseconds, reporting progress.",
    inputSchema: objectSchema({ ms: { type: "number", minimum: 0 }, steps: { type: "integer", minimum: 1 } }),
  },
  {
    name: "garbage",
    description: "Writes garbage to stdout, then echoes.",
    inputSchema: { type: "object", additionalProperties: true },
  },
  {
    name: "huge",
    description: "Answers a result of mb megabytes.",
    inputSchema: objectSchema({ mb: { type: "number", minimum: 0 } }),
  },
  {
    name: "proto",
    description: "Answers objects with __proto__ and constructor keys.",
    inputSchema: objectSchema({ placement: { type: "string", enum: ["top", "nested"] } }),
  },
  { name: "error", description: "Answers a tool error (isError).", inputSchema: objectSchema() },
  { name: "throw", description: "Answers a JSON-RPC error.", inputSchema: objectSchema() },
  { name: "spawn-grandchild", description: "Starts a grandchild and answers its pid.", inputSchema: objectSchema() },
  {
    name: "spawn-grandchild-and-exit",
    description: "Starts a grandchild, answers its pid, then exits.",
    inputSchema: objectSchema(),
  },
  {
    name: "pid",
    description: "Answers this server's pid, process group id and session id.",
    inputSchema: objectSchema(),
  },
  {
    name: "env",
    description: "Answers one environment variable.",
    inputSchema: objectSchema({ name: { type: "string" } }, ["name"]),
  },
  { name: "argv", description: "Answers this server's arguments.", inputSchema: objectSchema() },
  { name: "stderr", description: "Writes text to stderr.", inputSchema: objectSchema({ text: { type: "string" } }) },
];

function badNameTools() {
  const names = [
    "../x",
    "a/b",
    "",
    "n".repeat(10 * 1024),
    "tab\there",
    "new\nline",
    "nul\u0000byte",
    "esc\u001b[2J",
    "__proto__",
    "constructor",
    "ok_tool",
  ];
  return names.map((name) => ({ name, description: "A tool with a hostile name.", inputSchema: objectSchema() }));
}

function badSchemaTools() {
  return [
    {
      name: "remote_ref",
      description: "Input schema refers to a remote document.",
      inputSchema: objectSchema({ value: { $ref: "https://example.invalid/x.json" } }),
    },
    {
      name: "recursive_ref",
      description: "Input schema is a legal recursive tree.",
      inputSchema: {
        type: "object",
        $defs: { node: { type: "object", properties: { value: { type: "string" }, next: { $ref: "#/$defs/node" } } } },
        properties: { root: { $ref: "#/$defs/node" } },
      },
    },
    {
      name: "ref_loop",
      description: "Input schema refs point at each other and never reach a schema.",
      inputSchema: {
        type: "object",
        $defs: { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/a" } },
        properties: { value: { $ref: "#/$defs/a" } },
      },
    },
    {
      name: "invalid_schema",
      description: "Input schema is not a valid JSON Schema.",
      inputSchema: objectSchema({ value: { type: 42 } }),
    },
    { name: "ok_tool", description: "A normal tool.", inputSchema: objectSchema({ value: { type: "string" } }) },
  ];
}

function listedTools() {
  const count = numberFlag("tools", undefined);
  if (count !== undefined) {
    return Array.from({ length: count }, (_, i) => ({
      name: `tool_${i}`,
      description: `Generated echo tool number ${i}.`,
      inputSchema: { type: "object", additionalProperties: true },
    }));
  }
  if (hasFlag("bad-names")) return badNameTools();
  if (hasFlag("bad-schemas")) return badSchemaTools();
  return STANDARD_TOOLS;
}

const delay = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });

// Responses whose line this server writes by hand (see the proto tool).
const rawResponses = new Map();

function protoResponseLine(id, placement) {
  // Hand-written so `__proto__` and `constructor` are own keys on the wire; an object literal or
  // the SDK's result validation would turn them into prototype changes or drop them.
  const structured =
    placement === "nested"
      ? `{"nested":{"__proto__":{"polluted":"nested"},"constructor":{"prototype":{"polluted":"nested-ctor"}}},"normal":1}`
      : `{"__proto__":{"polluted":"structured"},"constructor":{"prototype":{"polluted":"structured-ctor"}},"nested":{"__proto__":{"polluted":"nested"}},"normal":1}`;
  return (
    `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{` +
    `"content":[{"type":"text","text":"proto","__proto__":{"polluted":"content"},"constructor":{"prototype":{"polluted":"content-ctor"}}}],` +
    `"structuredContent":${structured},` +
    `"__proto__":{"polluted":"result"}}}\n`
  );
}

class HostileStdioServerTransport extends StdioServerTransport {
  send(message) {
    const raw = "id" in message ? rawResponses.get(message.id) : undefined;
    if (raw === undefined) return super.send(message);
    rawResponses.delete(message.id);
    return new Promise((resolve) => {
      if (process.stdout.write(raw)) resolve();
      else process.stdout.once("drain", resolve);
    });
  }
}

async function callTool(name, args, extra) {
  switch (name) {
    case "crash":
      if (args.grandchild === true) spawnGrandchild();
      process.stderr.write("hostile-server: crashing mid-call as asked\n");
      process.exit(1);
      break;
    case "exit": {
      const code = typeof args.code === "number" ? args.code : 0;
      setTimeout(() => process.exit(code), 50);
      return text("exiting");
    }
    case "spawn-grandchild":
      return text({ grandchildPid: spawnGrandchild() });
    case "hang":
      return new Promise(() => undefined);
    case "slow": {
      const ms = typeof args.ms === "number" ? args.ms : 1000;
      const steps = typeof args.steps === "number" && args.steps >= 1 ? Math.floor(args.steps) : 5;
      const progressToken = extra._meta?.progressToken;
      // Each notification goes out before its wait, so none of them trails the answer (the SDK
      // client handles notifications a tick later than responses and would drop a late one).
      for (let step = 1; step <= steps; step += 1) {
        if (progressToken !== undefined) {
          await extra.sendNotification({
            method: "notifications/progress",
            params: { progressToken, progress: step, total: steps },
          });
        }
        await delay(ms / steps, extra.signal);
        if (extra.signal.aborted) return text("cancelled");
      }
      return text(`slept ${ms} ms`);
    }
    case "garbage":
      writeGarbage();
      return text(args);
    case "huge": {
      const mb = typeof args.mb === "number" ? args.mb : 20;
      return text("x".repeat(Math.floor(mb * 1024 * 1024)));
    }
    case "proto":
      rawResponses.set(extra.requestId, protoResponseLine(extra.requestId, args.placement));
      return text("replaced by the raw line");
    case "error":
      return { isError: true, content: [{ type: "text", text: "hostile-server: the tool failed as asked" }] };
    case "throw":
      throw new McpError(ErrorCode.InternalError, "hostile-server: the call failed as asked");
    case "spawn-grandchild-and-exit": {
      const grandchildPid = spawnGrandchild();
      // Exit once the answer is on its way out.
      setTimeout(() => process.exit(0), 50);
      return text({ grandchildPid });
    }
    case "pid":
      return text({ pid: process.pid, ...readGroupAndSession() });
    case "env": {
      const varName = String(args.name);
      const value = process.env[varName];
      return text({ name: varName, present: value !== undefined, value: value ?? null });
    }
    case "argv":
      return text(argv);
    case "stderr":
      process.stderr.write(String(args.text ?? ""));
      return text("ok");
    default:
      return text(args);
  }
}

async function serve() {
  const server = new Server({ name: "hostile-server", version: "1.0.0" }, { capabilities: { tools: {} } });
  const tools = listedTools();
  const pageSize = numberFlag("page-size", undefined);
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    if (pageSize === undefined || pageSize < 1) return { tools };
    const cursor = request.params?.cursor;
    const start = cursor === undefined ? 0 : Number(cursor);
    if (!Number.isInteger(start) || start < 0 || start > tools.length) {
      throw new McpError(ErrorCode.InvalidParams, `hostile-server: invalid cursor ${JSON.stringify(cursor)}`);
    }
    const end = start + pageSize;
    return { tools: tools.slice(start, end), ...(end < tools.length ? { nextCursor: String(end) } : {}) };
  });
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    callTool(request.params.name, request.params.arguments ?? {}, extra),
  );
  await server.connect(new HostileStdioServerTransport());
}

if (hasFlag("exit-at-start")) {
  process.stderr.write("hostile-server: exiting at start as asked (--exit-at-start)\n");
  process.exit(3);
}
const stderrFlood = numberFlag("stderr-flood", 0);
if (stderrFlood > 0) process.stderr.write("e".repeat(stderrFlood) + "\n");
if (hasFlag("spawn-grandchild-and-exit") || hasFlag("spawn-grandchild-and-crash")) {
  spawnGrandchild();
  const go = hasFlag("spawn-grandchild-and-crash") ? () => process.kill(process.pid, "SIGKILL") : () => process.exit(0);
  const afterMs = numberFlag("exit-after-grandchild-ms", 0);
  if (afterMs > 0) {
    // Keeps nothing else alive meanwhile: stdin is not read.
    setTimeout(go, afterMs);
    await new Promise(() => undefined);
  }
  go();
}
if (hasFlag("spawn-grandchild")) spawnGrandchild();

if (hasFlag("never-initialize")) {
  process.stdin.resume();
} else {
  if (hasFlag("garbage-at-start")) writeGarbage();
  await serve();
}
