import { Command, CommanderError, Option } from "commander";
import type { MCPLogLevel } from "@mcp-tool-adapter/adapter";
import { MCP_LOG_LEVELS } from "@mcp-tool-adapter/core/protocol";
import { callCommandOptions, commonOptions, type CallFlags, type CommonFlags } from "./command-flags.js";
import { EXIT_OK, EXIT_USAGE } from "./exit-codes.js";
import type { CliContext } from "./io.js";
import { packageManifest } from "./package-file.js";
import { parseMilliseconds } from "./flag-parsers.js";
import { reportCommandError } from "./report-error.js";
import { addServeCommand } from "./commands/serve.js";

/** The MCP log levels from core's protocol list, which `--help` can load without the adapter. */
export const CLI_LOG_LEVELS = MCP_LOG_LEVELS satisfies readonly MCPLogLevel[];

/**
 * The commander program behind `runCli`. Each command loads its implementation (and with it the
 * adapter, the transports and their dependencies) only when it runs, so `--help` and `--version`
 * answer without loading the library.
 */
export function buildProgram(context: CliContext, setExitCode: (code: number) => void): Command {
  const program = new Command("mcp-tool-adapter")
    .description("Connect MCP servers, list their tools with inferred capabilities, and call them.")
    .version(packageManifest().version, "-v, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .showHelpAfterError("(run with --help for usage)")
    // Sub-commands created below inherit exitOverride, configureOutput and the help option.
    .exitOverride()
    .configureOutput({
      writeOut: (text) => context.stdout.write(text),
      writeErr: (text) => context.stderr.write(text),
      getOutHelpWidth: () => (context.isTTY ? context.columns : 80),
      getErrHelpWidth: () => (context.isTTY ? context.columns : 80),
      outputError: (text, write) => write(context.colors.red(text)),
    })
    .addHelpText(
      "after",
      [
        "",
        "Without --config the default config shipped with the package is used: server-everything",
        "and server-memory over stdio. Config files are the mcpServers JSON of Claude Desktop /",
        "Cursor, VS Code's servers JSON, or the same in YAML; ${VAR} and ${VAR:-default} expand.",
        "",
        "Exit codes: 0 ok, 1 a server or tool call failed, 2 bad usage or config.",
      ].join("\n"),
    );

  const connectTimeoutOption = () =>
    new Option("--connect-timeout <ms>", "deadline per server for connect and tool listing").argParser(
      parseMilliseconds,
    );
  const logLevelOption = () =>
    new Option("--log-level <level>", "print the servers' log messages of this level and above (on stderr)").choices([
      ...CLI_LOG_LEVELS,
    ]);

  const configOption = () =>
    new Option("-c, --config <file>", "config file (JSON or YAML); default: the shipped default config");
  const jsonOption = () => new Option("--json", "print JSON for machines instead of tables");
  const noCacheOption = () =>
    new Option("--no-cache", "list every server's tools afresh, without reading or updating the tool-list cache");
  const lockOption = () =>
    new Option(
      "--lock <file>",
      "the tool lock file; default: mcp-tools.lock.json in the working directory, when it exists",
    );

  /**
   * The options every command takes, in help order; `serverFilter` adds `-s, --server` after
   * `--config`, `lock` adds `--lock` (commands that check tools against the lock file).
   */
  const withCommonOptions = (command: Command, { serverFilter = false, lock = false, cache = false } = {}): Command => {
    command.addOption(configOption());
    if (serverFilter) command.addOption(new Option("-s, --server <name...>", "only these servers (repeatable)"));
    if (lock) command.addOption(lockOption());
    if (cache) command.addOption(noCacheOption());
    return command.addOption(jsonOption()).addOption(connectTimeoutOption()).addOption(logLevelOption());
  };

  /** A command that connects every (or every `--server`) server and lists something of each. */
  const listCommand = (
    name: string,
    description: string,
    load: () => Promise<
      (context: CliContext, options: ReturnType<typeof commonOptions> & { servers?: string[] }) => Promise<number>
    >,
    { lock = false, cache = false } = {},
  ): void => {
    withCommonOptions(program.command(name).description(description), { serverFilter: true, lock, cache }).action(
      async (flags: CommonFlags & { server?: string[] }) => {
        const run = await load();
        setExitCode(
          await run(context, {
            ...commonOptions(flags),
            ...(flags.server === undefined ? {} : { servers: flags.server }),
          }),
        );
      },
    );
  };

  withCommonOptions(
    program
      .command("tools")
      .description(
        "connect, discover, and list every tool: registered name, read-only / writes, what decided it, description",
      ),
    { serverFilter: true, lock: true, cache: true },
  )
    .addOption(new Option("-t, --toolset <name>", 'only the tools of this toolset (the config\'s "toolsets")'))
    .action(async (flags: CommonFlags & { server?: string[]; toolset?: string }) => {
      const { runToolsCommand } = await import("./commands/tools.js");
      setExitCode(
        await runToolsCommand(context, {
          ...commonOptions(flags),
          ...(flags.server === undefined ? {} : { servers: flags.server }),
          ...(flags.toolset === undefined ? {} : { toolset: flags.toolset }),
        }),
      );
    });

  withCommonOptions(
    program
      .command("call")
      .description("call one tool with validated arguments and print its result and duration")
      .argument("<server/tool>", "the tool, as listed by `tools` (e.g. memory/read_graph)")
      .addOption(new Option("-a, --args <json>", "arguments as a JSON object").conflicts("argsFile"))
      .addOption(new Option("-f, --args-file <file>", "read the arguments (a JSON object) from a file"))
      .addOption(new Option("-t, --timeout <ms>", "deadline for the call").argParser(parseMilliseconds))
      .addOption(
        new Option("-y, --yes", "call a tool that may write without asking (needed when stdin is not a terminal)"),
      ),
    { lock: true, cache: true },
  ).action(async (target: string, flags: CallFlags) => {
    const { runCallCommand } = await import("./commands/call.js");
    setExitCode(await runCallCommand(context, callCommandOptions(target, flags)));
  });

  withCommonOptions(
    program
      .command("check")
      .description("connect every server and report status, handshake time and tool count (exit 1 when any fails)"),
    { lock: true },
  ).action(async (flags: CommonFlags) => {
    const { runCheckCommand } = await import("./commands/check.js");
    setExitCode(await runCheckCommand(context, commonOptions(flags)));
  });

  listCommand(
    "resources",
    "connect and list every server's resources and resource templates",
    async () => (await import("./commands/protocol.js")).runResourcesCommand,
  );

  withCommonOptions(
    program
      .command("read")
      .description("read one resource and print its text")
      .argument("<server>", "the server, as named in the config")
      .argument("<uri>", "the resource's URI, as listed by `resources` (or filled-in template)"),
  ).action(async (server: string, uri: string, flags: CommonFlags) => {
    const { runReadCommand } = await import("./commands/protocol.js");
    setExitCode(await runReadCommand(context, { ...commonOptions(flags), server, uri }));
  });

  listCommand(
    "prompts",
    "connect and list every server's prompts with their arguments ([optional])",
    async () => (await import("./commands/protocol.js")).runPromptsCommand,
  );

  withCommonOptions(
    program
      .command("prompt")
      .description("get one prompt's messages, its arguments checked first")
      .argument("<server/prompt>", "the prompt, as listed by `prompts` (e.g. everything/args-prompt)")
      .addOption(new Option("--arg <key=value...>", "a prompt argument (repeatable)")),
  ).action(async (target: string, flags: CommonFlags & { arg?: string[] }) => {
    const { runPromptCommand } = await import("./commands/protocol.js");
    setExitCode(await runPromptCommand(context, { ...commonOptions(flags), target, args: flags.arg ?? [] }));
  });

  program
    .command("pin")
    .description(
      "connect and write the lock file (mcp-tools.lock.json): a fingerprint of every tool definition, approved as it is now",
    )
    .addOption(configOption())
    .addOption(new Option("-s, --server <name...>", "only these servers (the lock keeps the others' pins)"))
    .addOption(lockOption())
    .addOption(jsonOption())
    .addOption(connectTimeoutOption())
    .action(async (flags: CommonFlags & { server?: string[] }) => {
      const { runPinCommand } = await import("./commands/pin.js");
      setExitCode(
        await runPinCommand(context, {
          ...commonOptions(flags),
          ...(flags.server === undefined ? {} : { servers: flags.server }),
        }),
      );
    });

  program
    .command("login")
    .description("log in to a remote server of the config (OAuth in the browser, or its machine credentials)")
    .argument("<server>", 'the server, as named in the config (it needs an "auth" entry)')
    .addOption(new Option("--scope <scopes>", "ask for these scopes (space-separated) instead of the server's"))
    .addOption(new Option("-t, --timeout <ms>", "how long to wait for the browser").argParser(parseMilliseconds))
    .addOption(configOption())
    .addOption(jsonOption())
    .action(async (server: string, flags: CommonFlags & { scope?: string; timeout?: number }) => {
      const { runLoginCommand } = await import("./commands/auth.js");
      setExitCode(
        await runLoginCommand(context, {
          ...commonOptions(flags),
          server,
          ...(flags.scope === undefined ? {} : { scope: flags.scope }),
          ...(flags.timeout === undefined ? {} : { timeoutMs: flags.timeout }),
        }),
      );
    });

  program
    .command("logout")
    .description("forget the stored login of a server")
    .argument("<server>", "the server, as named in the config")
    .addOption(configOption())
    .addOption(jsonOption())
    .action(async (server: string, flags: CommonFlags) => {
      const { runLogoutCommand } = await import("./commands/auth.js");
      setExitCode(await runLogoutCommand(context, { ...commonOptions(flags), server }));
    });

  program
    .command("auth")
    .description("stored logins")
    .command("status")
    .description("who is logged in to which server, with which scopes, until when (never the token)")
    .addOption(configOption())
    .addOption(jsonOption())
    .action(async (flags: CommonFlags) => {
      const { runAuthStatusCommand } = await import("./commands/auth.js");
      setExitCode(await runAuthStatusCommand(context, commonOptions(flags)));
    });

  addServeCommand(program, context, setExitCode);
  return program;
}

/** Prints what went wrong the way the CLI reports it and returns the exit code for it. */
export function reportError(context: CliContext, error: unknown): number {
  if (error instanceof CommanderError) {
    // Help and version are "errors" only to commander; it has already printed them. Plain
    // `mcp-tool-adapter` without a command prints help as a usage error ("commander.help").
    if (error.code === "commander.helpDisplayed" || error.code === "commander.version") return EXIT_OK;
    if (error.code === "commander.executeSubCommandAsync") return error.exitCode;
    return EXIT_USAGE;
  }
  return reportCommandError(context, error);
}
