#!/usr/bin/env node
// Every example in the docs and READMEs must work on a machine that has never fetched the server
// it starts. Two rules, over every fenced block (TypeScript, JSON, YAML, shell):
//
// 1. A server started through `npx` passes `-y` (or `--yes`) first. Without it npm 10+ asks before
//    installing, and with no terminal (a server's stdin is our pipe) it gives up at once:
//    "npx canceled due to missing packages and no YES option".
// 2. A block that starts a server through `npx` sets no connect deadline shorter than
//    FIRST_FETCH_DEADLINE_MS: `connect({ timeoutMs })`, `reconnect({ timeoutMs })`, and
//    `connectTimeoutMs` (an adapter's, a server set's or a config file's), except one inside the
//    `{ ... }` of a remote server (one with a `url`), which `npx` does not concern.
//
// The deadline: the adapter's and the server set's default `connectTimeoutMs`. With an empty npm
// cache (registry.npmjs.org, this project's 2-core machine), a first `npx -y` of
// @modelcontextprotocol/server-everything (54 MB in npm's cache) answered `initialize` after 6.8 s,
// server-memory after 5.9 s, server-filesystem after 6.3 s; run through the adapter README's
// example, the connect took over 10 s (its old `timeoutMs: 10_000` expired; the whole example took
// 13.4 s with the default deadline).
import { relative } from "node:path";
import { codeBlocks, docFiles, repoRoot } from "./doc-files.mjs";

export const FIRST_FETCH_DEADLINE_MS = 30_000;

/** `command: "npx"` in TypeScript, JSON or YAML. */
const npxCommand = /["']?\bcommand["']?\s*:\s*["']?npx["']?(?=[\s,}\n])/g;
/** The `args` list after a command, up to its closing bracket. */
const argsList = /["']?\bargs["']?\s*:\s*\[([^\]]*)\]/y;
/** `npx <first word>` on a shell line. */
const npxShell = /(?:^|[\s;&|(]|\$ )npx\s+(\S+)/gm;
/** What `npx` may run without `-y` in a shell block: the CLI of the package the docs install first. */
const INSTALLED_CLIS = new Set(["mcp-tool-adapter"]);
const connectDeadline = /\b(?:re)?connect\(\s*\{[^}]*?\btimeoutMs\s*:\s*([\d_]+)/g;
const connectTimeoutOption = /["']?\bconnectTimeoutMs["']?\s*:\s*([\d_]+)/g;
const SHELL_LANGUAGES = new Set(["sh", "bash", "shell", "console", "zsh"]);

/** The text of the innermost `{ ... }` around `index`, or undefined when there is none. */
function enclosingObject(code, index) {
  let depth = 0;
  for (let start = index - 1; start >= 0; start -= 1) {
    if (code[start] === "}") depth += 1;
    else if (code[start] === "{") {
      if (depth === 0) {
        let inner = 0;
        for (let end = start + 1; end < code.length; end += 1) {
          if (code[end] === "{") inner += 1;
          else if (code[end] === "}") {
            if (inner === 0) return code.slice(start, end + 1);
            inner -= 1;
          }
        }
        return code.slice(start);
      }
      depth -= 1;
    }
  }
  return undefined;
}

/** Where in `code` a match at `index` is, as a line number of the Markdown file. */
function lineOf(block, index) {
  return block.line + block.code.slice(0, index).split("\n").length;
}

/** The problems of one fenced block, each as `{ line, message }`. */
export function firstRunProblems(block) {
  const problems = [];
  const { code } = block;
  let startsNpxServer = false;

  for (const match of code.matchAll(npxCommand)) {
    startsNpxServer = true;
    const rest = code.slice(match.index + match[0].length).replace(/^[\s,]*/, "");
    argsList.lastIndex = 0;
    const args = argsList.exec(rest);
    const first = args?.[1]
      ?.split(",")[0]
      ?.trim()
      .replace(/^["']|["']$/g, "");
    if (first !== "-y" && first !== "--yes") {
      problems.push({
        line: lineOf(block, match.index),
        message: `a server started through npx needs "-y" as its first argument (args: [${args?.[1]?.trim() ?? ""}]); without it npx refuses to install the server when no terminal is attached`,
      });
    }
  }

  if (SHELL_LANGUAGES.has(block.language)) {
    for (const match of code.matchAll(npxShell)) {
      const word = match[1] ?? "";
      if (word === "-y" || word === "--yes" || INSTALLED_CLIS.has(word)) continue;
      problems.push({
        line: lineOf(block, match.index),
        message: `"npx ${word}" needs "-y" ("npx -y ${word}"): without it npx asks before installing`,
      });
    }
  }

  if (startsNpxServer) {
    for (const pattern of [connectDeadline, connectTimeoutOption]) {
      for (const match of code.matchAll(pattern)) {
        const deadline = Number((match[1] ?? "").replaceAll("_", ""));
        if (deadline >= FIRST_FETCH_DEADLINE_MS) continue;
        if (pattern === connectTimeoutOption && /["']?\burl["']?\s*:/.test(enclosingObject(code, match.index) ?? "")) {
          continue;
        }
        problems.push({
          line: lineOf(block, match.index),
          message: `a connect deadline of ${deadline} ms in an example that starts a server through npx: the first run downloads the server first; use at least ${FIRST_FETCH_DEADLINE_MS} ms (the default) or none`,
        });
      }
    }
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let blocks = 0;
  const problems = [];
  for (const file of docFiles()) {
    for (const block of codeBlocks(file)) {
      blocks += 1;
      for (const problem of firstRunProblems(block)) {
        problems.push(`${relative(repoRoot, file)}:${problem.line}: ${problem.message}`);
      }
    }
  }
  if (problems.length > 0) {
    console.error(`doc examples on a first run: ${problems.length} problem(s)\n${problems.join("\n")}`);
    process.exit(1);
  }
  console.log(`doc examples on a first run: ${blocks} code blocks, every npx server has -y and time to download`);
}
