import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Option, type Command } from "commander";
import type { ServerEntries } from "../../server-set/server-entry.js";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from "../exit-codes.js";
import { parseMilliseconds, parsePositiveCount, wholeNumberUpTo } from "../flag-parsers.js";
import type { CliContext } from "../io.js";

/** The package that serves the config's servers as one MCP server; optional, like engine-2026. */
export const GATEWAY_PACKAGE = "@mcp-tool-adapter/gateway";

export interface ServeCommandOptions {
  config?: string;
  servers?: string[];
  /** Expose only the tools of this toolset of the config's `toolsets`. */
  toolset?: string;
  lock?: string;
  http: boolean;
  host?: string;
  port?: number;
  /** The environment variable holding the bearer token HTTP clients must send. */
  tokenEnv?: string;
  allowedHosts?: string[];
  allowedOrigins?: string[];
  /** OAuth resource-server mode: the issuer whose tokens are accepted, and this gateway's URL (the tokens' audience). */
  oauthIssuer?: string;
  oauthResource?: string;
  /** Starts every HTTP session id, for a load balancer's routing (docs/gateway.md). */
  sessionPrefix?: string;
  approve?: "never" | "writes" | "destructive";
  approval?: "elicit" | "refuse";
  connectTimeoutMs?: number;
  /** Deadline of each upstream call, unless its server's entry sets callTimeoutMs (the set's callTimeoutMs). */
  callTimeoutMs?: number;
  /** Each HTTP session gets its own upstream connections, at most this many sessions at once. */
  upstreamPerClient?: number;
  /** The environment variable holding the secret every copy shares to seal passed-on requestStates. */
  requestStateKeyEnv?: string;
  /** This copy's MCP URL as the other copies reach it directly: retries of calls waiting here are passed on to it. */
  peerUrl?: string;
  /** How long a 2026-07-28 call waits for its client's answer to an upstream's question (the gateway's inputTimeoutMs). */
  inputTimeoutMs?: number;
  /** How many 2026-07-28 calls may wait for their client's answer at once (the gateway's maxCallsAwaitingInput). */
  maxCallsAwaitingInput?: number;
}

/** What `serve` uses of `@mcp-tool-adapter/gateway` (its public entry). */
interface GatewayModule {
  createGateway(options: Record<string, unknown>): {
    start(): Promise<{ ok: boolean; connected: string[]; failed: string[]; toolCount: number }>;
    close(): Promise<void>;
  };
  listenHttp(gateway: unknown, options: Record<string, unknown>): Promise<{ url: string; close(): Promise<void> }>;
  serveStdio(gateway: unknown): Promise<{ closed: Promise<void> }>;
}

/** Adds `serve` to the program: the one dispatcher line is `addServeCommand(program, context, setExitCode)`. */
export function addServeCommand(program: Command, context: CliContext, setExitCode: (code: number) => void): void {
  program
    .command("serve")
    .description(
      "serve the config's servers as one MCP server (stdio by default, or streamable HTTP) with the policy in front",
    )
    .addOption(new Option("-c, --config <file>", "config file (JSON or YAML); default: the shipped default config"))
    .addOption(new Option("-s, --server <name...>", "only these servers (one server: its names without a prefix)"))
    .addOption(new Option("-t, --toolset <name>", 'expose only the tools of this toolset (the config\'s "toolsets")'))
    .addOption(new Option("--lock <file>", "the tool lock file: drifted tools are withheld"))
    .addOption(new Option("--http", "serve streamable HTTP instead of stdio"))
    .addOption(new Option("--host <host>", "HTTP interface (default 127.0.0.1; any other needs --token-env)"))
    .addOption(
      new Option("--port <port>", "HTTP port (default: a free one, printed on stderr)").argParser(
        wholeNumberUpTo(65_535),
      ),
    )
    .addOption(new Option("--token-env <var>", "environment variable holding the bearer token HTTP clients must send"))
    .addOption(
      new Option("--allowed-host <host...>", "Host header names to accept besides the bound host and loopback"),
    )
    .addOption(new Option("--allowed-origin <origin...>", "browser origins that may call the gateway"))
    .addOption(
      new Option("--oauth-issuer <url>", "accept access tokens (JWTs) of this issuer, checked with its keys").implies({
        http: true,
      }),
    )
    .addOption(
      new Option("--oauth-resource <url>", "this gateway's URL as clients reach it: the audience tokens must name"),
    )
    .addOption(new Option("--session-prefix <id>", "start every HTTP session id with <id>- (load-balancer routing)"))
    .addOption(
      new Option("--approve <policy>", "which tool calls need approval").choices(["never", "writes", "destructive"]),
    )
    .addOption(
      new Option("--approval <mode>", "ask the client (elicit) or refuse such calls").choices(["elicit", "refuse"]),
    )
    .addOption(
      new Option("--connect-timeout <ms>", "deadline per server for connect and tool listing").argParser(
        parseMilliseconds,
      ),
    )
    .addOption(
      new Option(
        "--call-timeout <ms>",
        "deadline of each upstream tool call, unless its server's entry sets callTimeoutMs (default 60000)",
      ).argParser(parseMilliseconds),
    )
    .addOption(
      new Option(
        "--upstream-per-client <max-sessions>",
        "give each HTTP session its own upstream servers (at most <max-sessions> sessions at once)",
      ).argParser(parsePositiveCount),
    )
    .addOption(
      new Option(
        "--request-state-key-env <var>",
        "environment variable holding the secret (32+ characters) every gateway copy shares for 2026-07-28 retries",
      ),
    )
    .addOption(
      new Option(
        "--peer-url <url>",
        "this copy's MCP URL as the other copies reach it directly (not the balancer's); with --request-state-key-env, a 2026-07-28 retry landing on another copy is passed on to this one",
      ),
    )
    .addOption(
      new Option(
        "--input-timeout <ms>",
        "how long a 2026-07-28 call waits for its client's answer to an upstream's question (default 300000)",
      ).argParser(parseMilliseconds),
    )
    .addOption(
      new Option(
        "--max-calls-awaiting-input <n>",
        "how many 2026-07-28 calls may wait for their client's answer at once (default 100; 0 refuses every wait)",
      ).argParser(wholeNumberUpTo(Number.MAX_SAFE_INTEGER)),
    )
    .action(async (flags: Record<string, unknown>) => {
      setExitCode(
        await runServeCommand(context, {
          http: flags.http === true,
          ...(flags.config === undefined ? {} : { config: flags.config as string }),
          ...(flags.server === undefined ? {} : { servers: flags.server as string[] }),
          ...(flags.toolset === undefined ? {} : { toolset: flags.toolset as string }),
          ...(flags.lock === undefined ? {} : { lock: flags.lock as string }),
          ...(flags.host === undefined ? {} : { host: flags.host as string }),
          ...(flags.port === undefined ? {} : { port: flags.port as number }),
          ...(flags.tokenEnv === undefined ? {} : { tokenEnv: flags.tokenEnv as string }),
          ...(flags.allowedHost === undefined ? {} : { allowedHosts: flags.allowedHost as string[] }),
          ...(flags.allowedOrigin === undefined ? {} : { allowedOrigins: flags.allowedOrigin as string[] }),
          ...(flags.oauthIssuer === undefined ? {} : { oauthIssuer: flags.oauthIssuer as string }),
          ...(flags.oauthResource === undefined ? {} : { oauthResource: flags.oauthResource as string }),
          ...(flags.sessionPrefix === undefined ? {} : { sessionPrefix: flags.sessionPrefix as string }),
          ...(flags.approve === undefined ? {} : { approve: flags.approve as ServeCommandOptions["approve"] }),
          ...(flags.approval === undefined ? {} : { approval: flags.approval as ServeCommandOptions["approval"] }),
          ...(flags.connectTimeout === undefined ? {} : { connectTimeoutMs: flags.connectTimeout as number }),
          ...(flags.callTimeout === undefined ? {} : { callTimeoutMs: flags.callTimeout as number }),
          ...(flags.upstreamPerClient === undefined ? {} : { upstreamPerClient: flags.upstreamPerClient as number }),
          ...(flags.requestStateKeyEnv === undefined ? {} : { requestStateKeyEnv: flags.requestStateKeyEnv as string }),
          ...(flags.peerUrl === undefined ? {} : { peerUrl: flags.peerUrl as string }),
          ...(flags.inputTimeout === undefined ? {} : { inputTimeoutMs: flags.inputTimeout as number }),
          ...(flags.maxCallsAwaitingInput === undefined
            ? {}
            : { maxCallsAwaitingInput: flags.maxCallsAwaitingInput as number }),
        }),
      );
    });
}

/**
 * `serve`: runs until the client closes stdin (stdio) or the process gets SIGINT / SIGTERM (HTTP).
 * Everything it says goes to stderr: on stdio, stdout is the MCP channel.
 */
export async function runServeCommand(context: CliContext, options: ServeCommandOptions): Promise<number> {
  // Loaded when serve runs, so the program's --help does not load the library.
  const [
    { describeCause },
    { readToolLock },
    { cliLoginHint },
    { chooseEngines },
    { loadSelectedConfig, lockPath },
    { toolsetOf },
  ] = await Promise.all([
    import("@mcp-tool-adapter/core"),
    import("../../policy/lock-file.js"),
    import("../../server-set/server-auth.js"),
    import("../engine-2026-loader.js"),
    import("../connect-servers.js"),
    import("./tools.js"),
  ]);
  const gatewayModule = await loadGateway(context.cwd);
  if (gatewayModule === undefined) {
    context.err(
      `serve needs ${GATEWAY_PACKAGE}: npm install ${GATEWAY_PACKAGE} (beside mcp-tool-adapter, in the project or with -g).`,
    );
    return EXIT_USAGE;
  }
  const token = options.tokenEnv === undefined ? undefined : context.env[options.tokenEnv];
  if (options.tokenEnv !== undefined && (token === undefined || token.length === 0)) {
    context.err(`--token-env ${options.tokenEnv}: that environment variable is empty; set it to the bearer token.`);
    return EXIT_USAGE;
  }
  const requestStateKey =
    options.requestStateKeyEnv === undefined ? undefined : context.env[options.requestStateKeyEnv];
  if (options.requestStateKeyEnv !== undefined && (requestStateKey === undefined || requestStateKey.length < 32)) {
    context.err(
      `--request-state-key-env ${options.requestStateKeyEnv}: that environment variable must hold a secret of at least 32 characters, the same for every gateway copy.`,
    );
    return EXIT_USAGE;
  }
  if (options.peerUrl !== undefined && (!options.http || options.requestStateKeyEnv === undefined)) {
    context.err(
      "--peer-url needs --http and --request-state-key-env: the copies pass retries to each other over HTTP, with the secret they share.",
    );
    return EXIT_USAGE;
  }
  if ((options.oauthIssuer === undefined) !== (options.oauthResource === undefined)) {
    context.err(
      "--oauth-issuer and --oauth-resource go together: the issuer whose tokens are accepted, and this gateway's URL.",
    );
    return EXIT_USAGE;
  }
  const config = await loadSelectedConfig(context, { json: false, ...pick(options, ["config", "servers"]) });
  // Before connecting, as `tools --toolset` does: a toolset the file does not define is a usage mistake.
  const inToolset = options.toolset === undefined ? undefined : toolsetOf(config, options.toolset);
  const lock = options.lock === undefined ? undefined : await readToolLock(lockPath(context, { lock: options.lock }));
  const loginHint = (server: string): string => cliLoginHint(server, options.config);
  const engine =
    context.engine ?? (await chooseEngines(config.servers, context.cwd, context.loadEngine2026, { loginHint }));
  const gateway = gatewayModule.createGateway({
    servers: config.servers satisfies ServerEntries,
    serverSet: {
      ...(engine === undefined ? {} : { engine }),
      ...(lock === undefined ? {} : { pinning: { lock } }),
      ...(options.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: options.connectTimeoutMs }),
      ...(options.callTimeoutMs === undefined ? {} : { callTimeoutMs: options.callTimeoutMs }),
      auth: { loginHint },
    },
    ...(inToolset === undefined
      ? {}
      : { toolFilter: (tool: { server: string; name: string }) => inToolset(`${tool.server}/${tool.name}`) }),
    ...(options.approve === undefined || options.approve === "never"
      ? {}
      : { approval: { policy: options.approve, mode: options.approval ?? "elicit" } }),
    ...(options.upstreamPerClient === undefined
      ? {}
      : { upstreamPerClient: { maxSessions: options.upstreamPerClient } }),
    ...(requestStateKey === undefined ? {} : { requestStateKey }),
    ...pick(options, ["inputTimeoutMs", "maxCallsAwaitingInput", "peerUrl"]),
    logger: stderrLogger(context),
  });
  const report = await gateway.start();
  context.err(
    `gateway: ${report.connected.length} server(s) connected (${report.toolCount} tools)` +
      (report.failed.length === 0 ? "" : `; failed: ${report.failed.join(", ")}`),
  );
  try {
    if (!options.http) {
      const stdio = await gatewayModule.serveStdio(gateway);
      await stdio.closed;
      return EXIT_OK;
    }
    const http = await gatewayModule.listenHttp(gateway, {
      ...pick(options, ["host", "port", "allowedOrigins"]),
      ...allowedHostsWithPeer(options),
      ...(token === undefined ? {} : { auth: { bearerToken: token } }),
      ...(options.oauthIssuer === undefined || options.oauthResource === undefined
        ? {}
        : { auth: { oauth: { issuer: options.oauthIssuer, resource: options.oauthResource } } }),
      ...(options.sessionPrefix === undefined ? {} : { sessionIdPrefix: options.sessionPrefix }),
      logger: stderrLogger(context),
    });
    context.err(`gateway: serving MCP at ${http.url}`);
    await untilSignalled();
    await http.close();
    return EXIT_OK;
  } catch (error) {
    context.err(`gateway: ${describeCause(error)}`);
    return EXIT_FAILURE;
  } finally {
    await gateway.close();
  }
}

/** The Host names to accept: the given ones and the peer URL's, which the other copies send when they pass a retry on. */
function allowedHostsWithPeer(options: ServeCommandOptions): { allowedHosts?: string[] } {
  const peerHost = peerHostOf(options.peerUrl);
  const hosts = [...(options.allowedHosts ?? []), ...(peerHost === undefined ? [] : [peerHost])];
  return hosts.length === 0 ? {} : { allowedHosts: hosts };
}

function peerHostOf(peerUrl: string | undefined): string | undefined {
  if (peerUrl === undefined) return undefined;
  try {
    return new URL(peerUrl).hostname;
  } catch {
    return undefined; // the gateway refused it already, naming what is wrong
  }
}

function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const picked: Partial<Pick<T, K>> = {};
  for (const key of keys) if (source[key] !== undefined) picked[key] = source[key];
  return picked;
}

function untilSignalled(): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}

function stderrLogger(context: CliContext): Record<"debug" | "info" | "warn" | "error", (message: string) => void> {
  return {
    debug: () => undefined,
    info: (message) => context.err(message),
    warn: (message) => context.err(message),
    error: (message) => context.err(message),
  };
}

/** The gateway package: the copy in the user's project first, then the one beside the CLI; undefined when neither exists. */
async function loadGateway(cwd: string): Promise<GatewayModule | undefined> {
  let specifier = GATEWAY_PACKAGE;
  try {
    specifier = pathToFileURL(createRequire(join(cwd, "package.json")).resolve(GATEWAY_PACKAGE)).href;
  } catch {
    // Not in the project: try beside the CLI.
  }
  try {
    return (await import(specifier)) as GatewayModule;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ERR_MODULE_NOT_FOUND" && (error as Error).message.includes(`'${GATEWAY_PACKAGE}'`)) return undefined;
    throw error;
  }
}
