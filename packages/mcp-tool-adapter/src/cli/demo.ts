import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createCliContext, type CliIO } from "./io.js";
import { runCli } from "./run-cli.js";

interface DemoStep {
  title: string;
  argv: string[];
}

/**
 * The README's main job: run the CLI against the shipped default config (server-everything
 * and server-memory over stdio): check the servers, list their tools with capabilities, call
 * read tools and write tools. server-memory writes to a fresh temp file, removed afterwards.
 * Resolves with 0 when every step succeeded, else the first failing step's exit code.
 */
export async function runDemo(io: CliIO = {}): Promise<number> {
  const context = createCliContext(io);
  const { colors } = context;
  const memoryDir = await mkdtemp(join(tmpdir(), "mcp-tool-adapter-demo-"));
  const env = { ...(io.env ?? process.env), MCP_MEMORY_FILE_PATH: join(memoryDir, "memory.jsonl") };
  const entity = {
    entities: [
      { name: "mcp-tool-adapter", entityType: "project", observations: ["connects MCP servers to agent runtimes"] },
    ],
  };
  const steps: DemoStep[] = [
    { title: "Check every server of the default config", argv: ["check"] },
    { title: "List the tools with their capabilities", argv: ["tools"] },
    { title: "Call a read tool: memory/read_graph (the graph starts empty)", argv: ["call", "memory/read_graph"] },
    {
      title: "Call a write tool: memory/create_entities (--yes: approved without asking)",
      argv: ["call", "memory/create_entities", "--yes", "--args", JSON.stringify(entity)],
    },
    { title: "Read again: the entity is in the graph", argv: ["call", "memory/read_graph"] },
    {
      title: "Call server-everything: everything/get-sum",
      argv: ["call", "everything/get-sum", "--args", '{"a":2,"b":3}'],
    },
    {
      title: "A call with invalid arguments is refused before it reaches the server",
      argv: ["call", "everything/get-sum", "--args", '{"a":"two"}'],
    },
  ];
  const expectedExitCodes = [0, 0, 0, 0, 0, 0, 1];
  let exitCode = 0;
  try {
    for (const [index, step] of steps.entries()) {
      context.out();
      context.out(colors.bold(colors.cyan(`── ${index + 1}. ${step.title}`)));
      context.out(colors.dim(`$ mcp-tool-adapter ${step.argv.map(shellQuote).join(" ")}`));
      const code = await runCli(step.argv, { ...io, env });
      const expected = expectedExitCodes[index] ?? 0;
      if (code !== expected && exitCode === 0) exitCode = code === 0 ? 1 : code;
      if (code !== 0) context.out(colors.dim(`(exit code ${code}${code === expected ? ", as expected" : ""})`));
    }
    context.out();
    context.out(
      exitCode === 0
        ? colors.green("Demo finished: every step behaved as expected.")
        : colors.red("Demo finished with failures (see above)."),
    );
    return exitCode;
  } finally {
    await rm(memoryDir, { recursive: true, force: true });
  }
}

function shellQuote(argument: string): string {
  return /^[\w@%+=:,./-]+$/.test(argument) ? argument : `'${argument.replaceAll("'", "'\\''")}'`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  process.exitCode = await runDemo();
}
