import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync } from "node:fs";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";
import {
  describeCause,
  isPlainJsonRpcResultOrCall,
  SENT_AT_ONCE,
  type ProcessHoldingTransport,
} from "@mcp-tool-adapter/core";
import { markParsedFromWire } from "@mcp-tool-adapter/core/value-rules";
import { assertStdioServerConfig } from "./config-check.js";
import type { StdioServerConfig } from "./config.js";
import { buildServerEnvironment } from "./environment.js";
import { StdioTransportError } from "./errors.js";
import { killOnHostExit } from "./host-exit-cleanup.js";
import { checkJsonRpcMessage, type JsonRpcCheck } from "./json-rpc-message.js";
import { LineReader, type OversizedLine } from "./line-reader.js";
import type { Logger } from "./logger.js";
import { oversizedResponseError } from "./oversized-response.js";
import { untilOrAfter } from "./delay.js";
import {
  createProcessFamily,
  type FamilyMembers,
  type ProcessFamily,
  type ProcessFamilyStrategy,
} from "./process-family.js";
import { refuseNativeLauncher } from "./native-launcher.js";
import { findLauncher, launchInOwnProcessGroup, type Launch } from "./own-process-group.js";
import { nodePlatform, type StdioPlatform } from "./platform.js";
import { StderrLines, StderrTail } from "./stderr-tail.js";
import { resolveWindowsLaunch } from "./windows-command.js";
import { killFamilyNow, terminateFamily } from "./terminate-family.js";

export interface StdioTransportOptions {
  /** How long to wait after closing stdin before SIGTERM, and after SIGTERM before SIGKILL. Default 2000. */
  killGraceMs?: number;
  /** How much of the server's stderr to keep for error messages (the last bytes). Default 65536. */
  stderrBufferBytes?: number;
  /** Longest stdout line accepted; longer ones are dropped (MESSAGE_TOO_LARGE). Default 10 MiB. */
  maxMessageBytes?: number;
  /** Receives lifecycle events, and each stderr line at debug level. */
  logger?: Logger;
  /** Receives the server's stderr as it arrives (decoded UTF-8 text). */
  onStderr?: (chunk: string) => void;
  /**
   * How the server and everything it starts are found and stopped at close, crash and host exit.
   * `"tagged"` (Linux, the default there): the server stays in the host's session, like the SDK's
   * own transport, leading a process group of its own (started through a launcher that calls
   * setpgid and execs the server in place: this package's own on Linux x64, else perl on the PATH;
   * without either it stays in the host's group).
   * `"group"` (the default where /proc cannot be read): the server is spawned detached and
   * everything in its session is signalled too, at the price of a new session (on Linux, a new
   * scheduling autogroup: slower round trips on a busy machine). On Linux both signal everything
   * in the server's process group, every process carrying the server's token
   * (`MCP_TOOL_ADAPTER_SERVER_TOKEN`) and every descendant seen while it ran; only `"group"` finds
   * a child that scrubbed its environment, moved to a process group of its own in the server's
   * session and was orphaned before a snapshot saw it. `"tagged"` where /proc cannot be read
   * throws PROCESS_FAMILY_UNSUPPORTED.
   */
  processFamily?: ProcessFamilyStrategy;
  /**
   * The operating system: platform name, host environment, file lookups, spawn. The real one by
   * default; inject another to run one platform's rules on another (tests of the Windows command
   * resolution and `taskkill` on Linux), or to wrap spawn.
   */
  platform?: StdioPlatform;
}

export interface ServerExit {
  code: number | null;
  signal: string | null;
}

export const DEFAULT_KILL_GRACE_MS = 2000;
export const DEFAULT_STDERR_BUFFER_BYTES = 64 * 1024;
/** Same ceiling as the SDK's own stdio transport. */
export const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * How often the server's descendants are noted while it runs, so a child that scrubbed its
 * environment is still found after its parent died. Each snapshot reads only the family's
 * `children` files; the timer is unref'd and stops when the server exits.
 */
export const FAMILY_SNAPSHOT_MS = 250;
/** After the server exits, how long to wait for its last stdout/stderr bytes (a grandchild may hold the pipes open). */
const STDIO_DRAIN_MS = 250;
/**
 * Once the family is gone, how long to wait for Node's exit event of the server: a dead server is
 * a zombie until the event loop reaps it, which on a loaded machine took longer than the drain.
 */
const LEADER_REAP_MS = 5_000;
const STDERR_IN_MESSAGE_CHARS = 1000;
const PREVIEW_CHARS = 120;

type State = "new" | "starting" | "open" | "closing" | "closed";

/** How long a failed write waits for the server's exit event before it reports the bare write error. */
const WRITE_FAILURE_EXIT_WAIT_MS = 250;

/**
 * An MCP client Transport that runs the server as a child process: no shell, a minimal
 * environment, bounded buffers, and cleanup of the server's whole process family (it and
 * everything it started) on close, on crash, and when the host process exits.
 */
export class StdioTransport implements Transport, ProcessHoldingTransport {
  /**
   * While the transport is open, the server's process and its pipes keep the host's event loop
   * alive (nothing here unreferences them), and its close settles every request: a session needs
   * no timer to hold the process open for the requests it sends here.
   */
  readonly holdsProcessOpen = true;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage, extra?: MessageExtraInfo) => void) | undefined;

  readonly #config: StdioServerConfig;
  readonly #killGraceMs: number;
  readonly #maxMessageBytes: number;
  readonly #logger: Logger | undefined;
  readonly #onStderr: ((chunk: string) => void) | undefined;
  readonly #stderrTail: StderrTail;
  readonly #stderrLines = new StderrLines();
  readonly #reader: LineReader;
  readonly #family: ProcessFamily;
  readonly #platform: StdioPlatform;

  #state: State = "new";
  #child: ChildProcessWithoutNullStreams | undefined;
  #exit: ServerExit | undefined;
  #closeReason: StdioTransportError | undefined;
  #startPromise: Promise<void> | undefined;
  #closePromise: Promise<void> | undefined;
  #terminatePromise: Promise<void> | undefined;
  #untrack: (() => void) | undefined;
  #snapshots: NodeJS.Timeout | undefined;
  #closeEmitted = false;
  #writeErrorReported = false;
  /** What arrived while a message's check waited for the SDK's schema: handled in order after it. */
  #held: (() => void)[] | undefined;
  /** The messages sent this tick, written together at the end of it (see send()). */
  #outgoing: OutgoingBatch | undefined;
  /** Lines in the stdout chunk being read: each answer may send the next request. */
  #linesRead = 0;
  /**
   * The stdout chunk read in this tick held several lines (many calls in flight): what their
   * answers send is batched to the end of the tick. Cleared at the end of that tick, whether or
   * not anything was sent: a send in a later tick is lone again.
   */
  #answersArriveTogether = false;
  /**
   * A message was written at once since the last read from stdout or the last batch: a further
   * send (requests a gateway forwards from one read of its client, each call's sends of one turn)
   * joins a batch instead of making a write of its own. Cleared when stdout is read (a sequential
   * call's answer: its caller's next call is lone again) and when a batch is written. Not with a
   * nextTick of its own: that cost every sequential call a tick (some ten functions of Node's tick
   * queue, run interpreted during the calls V8 has not compiled yet). A send in a later tick with
   * neither in between is batched to the end of its tick instead of written at once.
   */
  #wroteSinceRead = false;
  readonly #flushOutgoing = (): void => {
    this.#flush();
  };
  readonly #endAnswersTick = (): void => {
    this.#answersArriveTogether = false;
  };
  /**
   * Runs as a microtask queued by the stdout handler: the answers' continuations (which send) are
   * promise reactions queued during the read, and a nextTick queued by the handler itself would
   * run before all of them. A nextTick queued from a microtask runs once the microtasks are done.
   */
  readonly #endAnswersTickLater = (): void => {
    process.nextTick(this.#endAnswersTick);
  };
  readonly #leaderExited: Promise<void>;
  #resolveLeaderExited!: () => void;
  readonly #stdioClosed: Promise<void>;
  #resolveStdioClosed!: () => void;

  constructor(config: StdioServerConfig, options: StdioTransportOptions = {}) {
    assertStdioServerConfig(config);
    this.#config = { ...config, args: [...(config.args ?? [])] };
    this.#platform = options.platform ?? nodePlatform;
    this.#family = createProcessFamily(options.processFamily, config.command, {
      platform: this.#platform.name,
      host: this.#platform,
    });
    this.#killGraceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
    this.#maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.#logger = options.logger;
    this.#onStderr = options.onStderr;
    this.#stderrTail = new StderrTail(options.stderrBufferBytes ?? DEFAULT_STDERR_BUFFER_BYTES);
    this.#reader = new LineReader(this.#maxMessageBytes, {
      onLine: this.#handleLine,
      onOversizedStart: (bytes) => this.#reportOversized(bytes),
      onOversizedEnd: (line) => this.#answerOversized(line),
    });
    this.#leaderExited = new Promise((resolve) => (this.#resolveLeaderExited = resolve));
    this.#stdioClosed = new Promise((resolve) => (this.#resolveStdioClosed = resolve));
  }

  /** The server's process id, once started (also its process group id with processFamily "group" on POSIX). */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** How the server's processes are found and stopped: the option given, or the platform's default. */
  get processFamily(): ProcessFamilyStrategy {
    return this.#family.strategy;
  }

  /** The last `stderrBufferBytes` the server wrote to stderr. */
  get stderrTail(): string {
    return this.#stderrTail.text;
  }

  /** How the server process ended, once it has. */
  get exit(): ServerExit | undefined {
    return this.#exit;
  }

  /** Why the transport closed when the server went away on its own (SERVER_EXITED). */
  get closeReason(): StdioTransportError | undefined {
    return this.#closeReason;
  }

  start(): Promise<void> {
    if (this.#state !== "new") {
      return Promise.reject(
        new StdioTransportError(
          "ALREADY_STARTED",
          `The stdio transport for "${this.#config.command}" was already started. Create a new transport to start the server again (Client.connect() calls start() itself).`,
          { command: this.#config.command },
        ),
      );
    }
    this.#state = "starting";
    this.#startPromise = this.#spawn();
    return this.#startPromise;
  }

  send(message: JSONRPCMessage): Promise<void> {
    const child = this.#child;
    if (this.#state === "new" || this.#state === "starting" || child === undefined) {
      return Promise.reject(
        new StdioTransportError(
          "NOT_STARTED",
          `Cannot send to MCP server "${this.#config.command}": the transport is not started. Call start() (or Client.connect()) first.`,
          {
            command: this.#config.command,
          },
        ),
      );
    }
    if (this.#state !== "open") {
      const why = this.#exit === undefined ? "was closed" : `is closed (the server ${describeExit(this.#exit)})`;
      return Promise.reject(
        new StdioTransportError(
          "TRANSPORT_CLOSED",
          `Cannot send to MCP server "${this.#config.command}": the transport ${why}. Create a new transport to reconnect.`,
          {
            command: this.#config.command,
            ...this.#processDetails(),
            cause: this.#closeReason,
          },
        ),
      );
    }
    // As SDK 1.x's serializeMessage: one line of JSON.
    const line = `${JSON.stringify(message)}\n`;
    // Joins this tick's batch: one is open, several answers arrived together (many calls in
    // flight, each answer sending the next call), or another message was written at once since
    // the last read. The lone message is written below, last: V8 tiers a function up after a
    // number of calls scaled by the share of its bytecode each call runs up to its return, and
    // returning before the batching code kept this one unoptimized some 90 calls longer.
    if (this.#outgoing !== undefined || this.#answersArriveTogether || this.#wroteSinceRead)
      return this.#sendBatched(child, line);
    // A lone message (a sequential call, the next page of a listing) is written at once: waiting
    // for the end of the tick would put whatever else the tick does ahead of the server's work.
    // Only the first since stdout was last read (see #wroteSinceRead): the ones after it are
    // batched, so a burst costs two writes (the first at once, the rest at the end of the tick)
    // instead of one each.
    this.#wroteSinceRead = true;
    return this.#writeNow(child, line);
  }

  /**
   * Adds `line` to this tick's batch (opened here when there is none). A batch leaves as one
   * string in one write system call, with one write callback and one promise for all of its
   * messages: the pipe write is the largest single cost of a call on the client, and per-message
   * stream bookkeeping the next. Every send() of a batch resolves once its bytes are written (or
   * rejects with WRITE_FAILED).
   */
  #sendBatched(child: ChildProcessWithoutNullStreams, line: string): Promise<void> {
    let batch = this.#outgoing;
    if (batch === undefined) {
      batch = new OutgoingBatch(child);
      this.#outgoing = batch;
      process.nextTick(this.#flushOutgoing);
    }
    batch.text += line;
    return batch.written;
  }

  /** Writes this tick's messages now (at the end of the tick, and before stdin is ended). */
  #flush(): void {
    const batch = this.#outgoing;
    if (batch === undefined) return;
    this.#outgoing = undefined;
    this.#wroteSinceRead = false;
    this.#write(batch);
  }

  #write(batch: OutgoingBatch): void {
    batch.child.stdin.write(batch.text, (error) => {
      this.#settle(batch, error);
    });
  }

  /**
   * Writes one message now. When the pipe takes it whole at once (the usual case) it is written
   * with no callback: a write callback costs Node a nextTick and a tick-info object per write, on
   * the path of every sequential call. Otherwise (the pipe is full, the write failed) its promise
   * settles as a batch's does.
   */
  #writeNow(child: ChildProcessWithoutNullStreams, line: string): Promise<void> {
    const { stdin } = child;
    // A closed stream: the write must report its failure, with a callback. Something still queued
    // needs no look here: the write below joins the queue in order and is caught as left over.
    if (!stdin.writable) return this.#writeBatch(child, line);
    stdin.write(line);
    // Nothing left in the stream's queue and no error: the bytes are in the pipe (the usual case,
    // last: see #handleLine on V8's tier-up).
    return stdin.writableLength > 0 || stdin.errored !== null ? this.#writeLeftOver(child) : SENT_AT_ONCE;
  }

  /** A write the pipe did not take whole, or that failed: its promise settles as a batch's does. */
  #writeLeftOver(child: ChildProcessWithoutNullStreams): Promise<void> {
    const { stdin } = child;
    const batch = new OutgoingBatch(child);
    const failed = stdin.errored;
    if (failed !== null) this.#settle(batch, failed);
    // Part of it waits for the pipe: an empty write queued behind it reports when it is through
    // (a stream calls its write callbacks in order).
    else stdin.write("", (error) => this.#settle(batch, error));
    return batch.written;
  }

  #writeBatch(child: ChildProcessWithoutNullStreams, text: string): Promise<void> {
    const batch = new OutgoingBatch(child);
    batch.text = text;
    this.#write(batch);
    return batch.written;
  }

  #settle(batch: OutgoingBatch, error: Error | null | undefined): void {
    if (!error) batch.resolve();
    else void this.#exitOrGiveUp(batch.child).then(() => batch.reject(this.#writeFailed(error)));
  }

  close(): Promise<void> {
    this.#closePromise ??= this.#closeNow();
    return this.#closePromise;
  }

  async #spawn(): Promise<void> {
    const { command } = this.#config;
    let child: ChildProcessWithoutNullStreams;
    try {
      child = this.#spawnServer();
    } catch (error) {
      throw this.#failStart(error);
    }
    this.#child = child;
    const pid = child.pid;
    if (pid !== undefined) {
      this.#family.adopt(pid);
      this.#snapshots = setInterval(() => this.#rememberFamily(), FAMILY_SNAPSHOT_MS);
      // A server left running must not keep the host alive; close() and the exit hook end it.
      this.#snapshots.unref();
      const family = this.#family;
      this.#untrack = killOnHostExit({
        terminate: () => this.#terminateFamily(),
        killNow: () => killFamilyNow(family),
      });
    }
    child.stdout.on("data", (chunk: Buffer) => {
      if (this.#state === "closed") return;
      this.#wroteSinceRead = false;
      this.#linesRead = 0;
      this.#reader.push(chunk);
      if (this.#linesRead > 1) {
        this.#answersArriveTogether = true;
        queueMicrotask(this.#endAnswersTickLater);
      }
    });
    child.stderr.on("data", (chunk: Buffer) => this.#handleStderr(chunk));
    child.stdin.on("error", (error) => this.#reportWriteError(error));
    child.on("exit", (code, signal) => this.#handleExit(code, signal));
    child.on("close", () => this.#resolveStdioClosed());

    await new Promise<void>((resolve, reject) => {
      child.once("spawn", () => {
        child.removeListener("error", reject);
        child.on("error", (error) => this.#reportError(error));
        resolve();
      });
      child.once("error", reject);
    }).catch((error: unknown) => {
      throw this.#failStart(error);
    });
    this.#logger?.debug?.("MCP server started", { command, pid });
    if (this.#state === "starting") this.#state = "open";
  }

  /**
   * Spawns the server (through its launcher). The native launcher runs from a temp directory,
   * where a policy (SELinux, AppArmor) may refuse to execute it though access() allowed it, and a
   * temp cleaner may have removed it since: when its spawn fails for any reason it is given up for
   * the rest of the process and the server is spawned through perl instead.
   */
  #spawnServer(): ChildProcessWithoutNullStreams {
    const launch = this.#launch();
    try {
      const child = this.#spawnChild(launch);
      // Node reports a refused exec (EACCES) on the child, with no pid, a tick later.
      if (child.pid !== undefined || !launch.native) return child;
      child.once("error", () => undefined);
    } catch (error) {
      if (!launch.native) throw error;
    }
    refuseNativeLauncher();
    return this.#spawnChild(this.#launch());
  }

  #spawnChild(launch: Launch & { windowsVerbatimArguments?: boolean }): ChildProcessWithoutNullStreams {
    return this.#platform.spawn(launch.command, launch.args, {
      cwd: this.#config.cwd,
      env: launch.env,
      stdio: ["pipe", "pipe", "pipe"],
      shell: false,
      // Only the "group" family detaches. libuv's only detach flag calls setsid (there is no
      // setpgid alone), so detached means a new session too, and with Linux's scheduler
      // autogroups a session is its own scheduling group: on a busy machine the server then
      // waits several times longer on the run queue per round trip (docs/transports.md). The
      // "tagged" family finds the server's processes through /proc instead, so on Linux the
      // server stays in the host's session.
      detached: this.#family.detached,
      windowsHide: true,
      windowsVerbatimArguments: launch.windowsVerbatimArguments ?? false,
    }) as ChildProcessWithoutNullStreams;
  }

  /**
   * With "tagged" the server leads a process group of its own inside the host's session (through
   * a launcher that calls setpgid and execs it in place), so a child that empties its environment
   * but stays in the group is found even after its parent died before any snapshot. Without the
   * launcher (not Linux x64 and no perl) the server is spawned as is, in the host's group.
   */
  #launch(): Launch & { windowsVerbatimArguments?: boolean; native?: boolean } {
    const { command, cwd } = this.#config;
    const platform = this.#platform;
    const plain: Launch = {
      command,
      args: this.#config.args ?? [],
      env: { ...buildServerEnvironment(this.#config, platform.env, platform.name), ...this.#family.environment },
    };
    // Windows: `.cmd` shims (npx, uvx, npm bins) need cmd.exe, with arguments escaped for it.
    if (platform.name === "win32") return { ...resolveWindowsLaunch({ ...plain, cwd }, platform), env: plain.env };
    if (this.#family.strategy !== "tagged") return plain;
    const launcher = findLauncher(platform);
    const launch = launchInOwnProcessGroup({ ...plain, cwd }, launcher);
    if (launch === undefined)
      this.#logger?.debug?.(
        `No launcher (this package's own runs on Linux x64 only, and there is no perl on PATH): MCP server "${command}" stays in the host's process group, so a child that empties its environment is found only while its parent lives or once a snapshot saw it`,
        { command },
      );
    return launch === undefined ? plain : { ...launch, native: launcher?.kind === "native" };
  }

  #rememberFamily(): void {
    const added = this.#family.remember();
    if (added.length > 0) this.#logger?.debug?.("MCP server started processes", { pid: this.pid, pids: added });
  }

  #stopSnapshots(): void {
    clearInterval(this.#snapshots);
    this.#snapshots = undefined;
  }

  #failStart(cause: unknown): StdioTransportError {
    this.#stopSnapshots();
    this.#untrack?.();
    this.#state = "closed";
    this.#closePromise ??= Promise.resolve();
    const error = spawnFailed(this.#config, cause);
    this.#logger?.error?.(error.message, { command: this.#config.command });
    this.#emitClose();
    return error;
  }

  async #closeNow(): Promise<void> {
    if (this.#state === "starting") await this.#startPromise?.catch(() => undefined);
    const child = this.#child;
    if (this.#state === "closed" || child === undefined) {
      this.#state = "closed";
      this.#emitClose();
      return;
    }
    this.#state = "closing";
    this.#stopSnapshots();
    // Noted while the server still runs: a child it started with a scrubbed environment is only
    // recognisable as its child, which it stops being when the server exits on stdin EOF. A
    // snapshot reads the family's `children` files only; the token and group members it does
    // not list keep their token and group, and the scan after the exit finds them. (A whole
    // /proc scan here held the EOF back by 4-8 ms on every close, `call`'s exit included.)
    if (this.#exit === undefined) this.#rememberFamily();
    // The polite way first (the MCP spec's shutdown order): end stdin and let the server exit.
    // What was sent before close() still goes out first.
    this.#flush();
    child.stdin.end();
    const whileExiting = this.#findFamilyOnEof(child);
    await untilOrAfter(this.#leaderExited, this.#killGraceMs);
    await this.#terminateFamily(whileExiting.found);
    // The family is gone from /proc, but Node may not have delivered the leader's exit event yet:
    // wait for it too (it is sure to come), so `exit` is known once close() resolves.
    await Promise.all([
      untilOrAfter(this.#stdioClosed, STDIO_DRAIN_MS),
      untilOrAfter(this.#leaderExited, LEADER_REAP_MS),
    ]);
    this.#finishClose();
  }

  /**
   * The whole family, scanned once the server has its EOF (stdin's pipe closed) and before it has
   * exited: the scan of /proc then overlaps the server's own shutdown, and the look-up after the
   * exit reads only the processes started since. `found` stays undefined when the server exited
   * first (or stdin never closed), and the look-up after the exit scans all of /proc as before.
   */
  #findFamilyOnEof(child: ChildProcessWithoutNullStreams): { found: FamilyMembers | undefined } {
    const scan: { found: FamilyMembers | undefined } = { found: undefined };
    const find = (): void => {
      if (this.#exit === undefined && this.#state === "closing") scan.found = this.#family.find();
    };
    if (child.stdin.closed) find();
    else child.stdin.once("close", find);
    return scan;
  }

  #handleExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.#exit = { code, signal };
    // Its children are already re-parented: nothing more to learn from its descendants.
    this.#stopSnapshots();
    this.#resolveLeaderExited();
    if (this.#state !== "open" && this.#state !== "starting") return;
    this.#state = "closing";
    // The family as it is at the exit: while the stdio drains, a member that empties its
    // environment could lose its own parent too (say, the real server behind a launcher).
    const atExit = this.#family.find();
    this.#closePromise = this.#closeAfterUnexpectedExit(atExit);
  }

  async #closeAfterUnexpectedExit(atExit: FamilyMembers): Promise<void> {
    // Let the last stdout messages and stderr lines arrive before reporting.
    await untilOrAfter(this.#stdioClosed, STDIO_DRAIN_MS);
    const exit = this.#exit ?? { code: null, signal: null };
    const stderrTail = this.stderrTail;
    const error = new StdioTransportError(
      "SERVER_EXITED",
      serverExitedMessage(this.#config.command, this.pid, exit, stderrTail),
      {
        command: this.#config.command,
        ...this.#processDetails(),
      },
    );
    this.#closeReason = error;
    this.#logger?.warn?.(error.message, {
      command: this.#config.command,
      pid: this.pid,
      exitCode: exit.code,
      signal: exit.signal,
    });
    this.#reportError(error);
    // Whatever the server left behind goes before onclose: the SDK's Client forgets its transport
    // on onclose, so a later Client.close() (the adapter's disconnect()) would not wait for this.
    // Leftovers usually go on SIGTERM within one poll; in-flight requests fail at onclose.
    await this.#terminateFamily(atExit);
    this.#finishClose();
  }

  /** SIGTERM to the whole family, SIGKILL after the grace; resolves when the family is gone. */
  #terminateFamily(known?: FamilyMembers): Promise<void> {
    this.#terminatePromise ??= (async () => {
      if (this.#child?.pid === undefined) return;
      await terminateFamily(this.#family, {
        graceMs: this.#killGraceMs,
        ...(known === undefined ? {} : { known }),
        onEscalate: (left) =>
          this.#logger?.warn?.(
            `MCP server "${this.#config.command}" (pid ${this.pid}) left ${left.pids.length} process(es) running ${this.#killGraceMs} ms after SIGTERM; sending SIGKILL`,
            { pid: this.pid, pids: left.pids },
          ),
      });
      this.#untrack?.();
    })();
    return this.#terminatePromise;
  }

  #finishClose(): void {
    this.#stopSnapshots();
    this.#state = "closed";
    this.#reader.clear();
    const child = this.#child;
    if (child !== undefined) {
      child.stdin.destroy();
      child.stdout.destroy();
      child.stderr.destroy();
    }
    const rest = this.#stderrLines.flush();
    if (rest !== undefined) this.#logStderrLine(rest);
    this.#logger?.debug?.("MCP server transport closed", {
      command: this.#config.command,
      pid: this.pid,
      exit: this.#exit,
    });
    this.#emitClose();
  }

  #emitClose(): void {
    if (this.#held !== undefined) {
      this.#held.push(() => {
        this.#emitClose();
      });
      return;
    }
    if (this.#closeEmitted) return;
    this.#closeEmitted = true;
    this.onclose?.();
  }

  /** The line reader's onLine itself (an arrow: no wrapper call between them on every line). */
  readonly #handleLine = (line: string): void => {
    this.#linesRead += 1;
    if (this.#held !== undefined) {
      this.#held.push(() => {
        this.#handleLine(line);
      });
      return;
    }
    if (line.trim() === "") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (cause) {
      this.#reportError(
        new StdioTransportError(
          "INVALID_MESSAGE",
          `MCP server "${this.#config.command}" wrote a line to stdout that is not JSON (skipped): ${preview(line)}. Servers must log to stderr, never stdout.`,
          { command: this.#config.command, cause },
        ),
      );
      return;
    }
    // The usual message (a result, a request or a notification without `_meta`) is delivered as
    // parsed: the check would pass it unchanged, in an object made for the purpose. Delivered
    // last: V8 tiers a function up after a number of calls scaled by the share of its bytecode
    // each call runs up to its return, and an early return kept this one unoptimized longer.
    if (!isPlainJsonRpcResultOrCall(parsed)) {
      this.#check(parsed, line);
      return;
    }
    this.#deliverParsed(parsed as JSONRPCMessage);
  };

  /** A message the quick look did not pass: checked against SDK 1.x's schema, in order. */
  #check(parsed: unknown, line: string): void {
    const result = checkJsonRpcMessage(parsed);
    if (result instanceof Promise) {
      this.#holdUntil(result, (checked) => {
        this.#accept(checked, line);
      });
      return;
    }
    this.#accept(result, line);
  }

  /**
   * Holds every line, oversized answer and the close until `check` settles, then handles its
   * result and what was held in the order it came: nothing overtakes a message whose check waits
   * for the SDK's schema to load.
   */
  #holdUntil(check: Promise<JsonRpcCheck>, first: (checked: JsonRpcCheck) => void): void {
    const held: (() => void)[] = [];
    this.#held = held;
    void check.then((checked) => {
      this.#held = undefined;
      first(checked);
      for (const handle of held) handle();
    });
  }

  #accept(result: JsonRpcCheck, line: string): void {
    if (!result.success) {
      this.#reportError(
        new StdioTransportError(
          "INVALID_MESSAGE",
          `MCP server "${this.#config.command}" wrote JSON to stdout that is not a JSON-RPC 2.0 message (skipped): ${preview(line)}.`,
          { command: this.#config.command, cause: result.error },
        ),
      );
      return;
    }
    this.#deliverParsed(result.data);
  }

  #deliverParsed(message: JSONRPCMessage): void {
    // Parsed from our own read just now: a reader that keeps the result may freeze it in place.
    markParsedFromWire((message as { result?: unknown }).result);
    this.#deliver(message);
  }

  #deliver(message: JSONRPCMessage): void {
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.#reportError(error instanceof Error ? error : new Error(String(error)));
    }
  }

  #reportOversized(bytes: number): void {
    this.#reportError(
      new StdioTransportError(
        "MESSAGE_TOO_LARGE",
        `MCP server "${this.#config.command}" sent a message longer than maxMessageBytes (${this.#maxMessageBytes} bytes, ${bytes} seen); it is being dropped. Raise maxMessageBytes if such results are expected.`,
        { command: this.#config.command },
      ),
    );
  }

  #answerOversized(line: OversizedLine): void {
    if (this.#held !== undefined) {
      this.#held.push(() => {
        this.#answerOversized(line);
      });
      return;
    }
    const answer = oversizedResponseError(line, this.#maxMessageBytes);
    if (answer !== undefined && this.#state !== "closed") this.#deliver(answer);
  }

  #handleStderr(chunk: Buffer): void {
    this.#stderrTail.append(chunk);
    if (this.#onStderr === undefined && this.#logger?.debug === undefined) return;
    const { text, lines } = this.#stderrLines.push(chunk);
    if (text !== "") this.#onStderr?.(text);
    for (const line of lines) this.#logStderrLine(line);
  }

  #logStderrLine(line: string): void {
    this.#logger?.debug?.(`[${this.#config.command} stderr] ${line}`, { pid: this.pid });
  }

  #reportWriteError(error: Error): void {
    if (this.#writeErrorReported) return;
    this.#writeErrorReported = true;
    this.#reportError(this.#writeFailed(error));
  }

  /**
   * A write fails (EPIPE) because the server is exiting, and its exit event often arrives a moment
   * later: waiting for it (briefly) lets the failure carry the exit code and stderr, and lets the
   * caller see the server exited instead of a bare broken pipe.
   */
  #exitOrGiveUp(child: ChildProcessWithoutNullStreams): Promise<void> {
    if (this.#exit !== undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        child.off("exit", done);
        resolve();
      };
      const timer = setTimeout(done, WRITE_FAILURE_EXIT_WAIT_MS);
      timer.unref();
      child.once("exit", done);
    });
  }

  #writeFailed(cause: Error): StdioTransportError {
    return new StdioTransportError(
      "WRITE_FAILED",
      `Could not write to MCP server "${this.#config.command}" (${cause.message}); the server has probably exited. Create a new transport to reconnect.`,
      { command: this.#config.command, ...this.#processDetails(), cause },
    );
  }

  #reportError(error: Error): void {
    try {
      this.onerror?.(error);
    } catch (handlerError) {
      this.#logger?.error?.("The transport's onerror handler threw", { error: String(handlerError) });
    }
  }

  #processDetails(): { pid?: number; stderrTail: string; exitCode?: number | null; signal?: string | null } {
    return {
      ...(this.pid === undefined ? {} : { pid: this.pid }),
      stderrTail: this.stderrTail,
      ...(this.#exit === undefined ? {} : { exitCode: this.#exit.code, signal: this.#exit.signal }),
    };
  }
}

/** The messages of one tick: one string, one write, one promise their send() calls share. */
class OutgoingBatch {
  readonly child: ChildProcessWithoutNullStreams;
  text = "";
  readonly written: Promise<void>;
  resolve!: () => void;
  reject!: (error: Error) => void;

  constructor(child: ChildProcessWithoutNullStreams) {
    this.child = child;
    this.written = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }
}

/** Builds a StdioTransport; nothing starts until `start()` (which `Client.connect()` calls). */
export function createStdioTransport(config: StdioServerConfig, options?: StdioTransportOptions): StdioTransport {
  return new StdioTransport(config, options);
}

function spawnFailed(config: StdioServerConfig, cause: unknown): StdioTransportError {
  const code = typeof cause === "object" && cause !== null && "code" in cause ? String(cause.code) : undefined;
  const command = config.command;
  let advice: string;
  if (code === "ENOENT" && config.cwd !== undefined && !existsSync(config.cwd)) {
    advice = `the working directory "${config.cwd}" does not exist (ENOENT). Fix "cwd" in the server config.`;
  } else if (code === "ENOENT") {
    advice = `command not found (ENOENT). Install it, make sure it is on the PATH the server gets (PATH is passed from the host), or give an absolute path in "command".`;
  } else if (code === "EACCES") {
    advice = `permission denied (EACCES). Make the file executable (chmod +x) or run it through its interpreter, e.g. "node".`;
  } else {
    advice = `${describeCause(cause)}. Check "command", "args" and "cwd" in the server config.`;
  }
  return new StdioTransportError("SPAWN_FAILED", `Could not start MCP server "${command}": ${advice}`, {
    command,
    cause,
  });
}

function describeExit(exit: ServerExit): string {
  return exit.signal === null ? `exited with code ${exit.code ?? "unknown"}` : `was killed by ${exit.signal}`;
}

function serverExitedMessage(command: string, pid: number | undefined, exit: ServerExit, stderrTail: string): string {
  const who = `MCP server "${command}"${pid === undefined ? "" : ` (pid ${pid})`}`;
  const stderr = stderrTail.trim();
  const tail =
    stderr === ""
      ? "It wrote nothing to stderr."
      : `Its stderr ended with:\n${stderr.length > STDERR_IN_MESSAGE_CHARS ? `…${stderr.slice(-STDERR_IN_MESSAGE_CHARS)}` : stderr}`;
  return `${who} ${describeExit(exit)} while connected. Check the server's command, arguments and environment. ${tail}`;
}

function preview(line: string): string {
  return JSON.stringify(line.length > PREVIEW_CHARS ? `${line.slice(0, PREVIEW_CHARS)}…` : line);
}
