import { frozenSnapshot } from "@mcp-tool-adapter/registry";
import { describeCause } from "./errors.js";
import { CoalescedTask, ListCache } from "./list-cache.js";
import { listAllPages, type ListPagesContext } from "./list-pages.js";
import type {
  MCPCompleteOptions,
  MCPCompletion,
  MCPCompletionReference,
  MCPPrompt,
  MCPPromptMessages,
  MCPRequestOptions,
  MCPRequestResult,
  PromptsChangedListener,
} from "./protocol-types.js";
import { requestFailure, runRequest, type RequestContext } from "./request-outcome.js";
import type { Session } from "./session.js";
import type { Logger } from "./types.js";
import { isRecord } from "@mcp-tool-adapter/core/value-rules";

/** What prompt handling needs from the adapter that owns the connection. */
export interface PromptSyncContext extends ListPagesContext, RequestContext {
  readonly logger: Logger | undefined;
  current(): Session | undefined;
}

/**
 * The server's prompts (listing, cached per session; `prompts/get` with the arguments checked
 * against the prompt's declared ones first; refreshes on `notifications/prompts/list_changed`)
 * and `completion/complete` for prompt arguments and resource-template variables.
 */
export class PromptSync {
  readonly #context: PromptSyncContext;
  readonly #prompts: ListCache<MCPPrompt>;
  readonly #listeners = new Set<PromptsChangedListener>();
  readonly #refresh: CoalescedTask;

  constructor(context: PromptSyncContext) {
    this.#context = context;
    this.#prompts = new ListCache((session) => this.#list(session));
    this.#refresh = new CoalescedTask(() => this.#refreshAndNotify());
  }

  /** Every prompt the server lists ([] when it declares no prompts capability). */
  list(session: Session): Promise<readonly MCPPrompt[]> {
    return this.#prompts.refresh(session);
  }

  async #list(session: Session): Promise<readonly MCPPrompt[]> {
    if (session.connection.serverCapabilities?.prompts === undefined) return Object.freeze([]);
    const raw = await listAllPages(this.#context, session, { method: "prompts/list", field: "prompts" });
    const prompts = raw.filter((item) => {
      const usable =
        isRecord(item) &&
        typeof item.name === "string" &&
        (item.arguments === undefined ||
          (Array.isArray(item.arguments) && item.arguments.every((a) => isRecord(a) && typeof a.name === "string")));
      if (!usable)
        this.#context.logger?.warn?.(
          `MCP server "${this.#context.serverName}" listed a prompt without a string "name" or with malformed "arguments"; it was skipped`,
          { item },
        );
      return usable;
    });
    return frozenSnapshot(prompts) as unknown as readonly MCPPrompt[];
  }

  /**
   * Gets a prompt's messages. The arguments are checked against the prompt's declared arguments
   * (listed once per session) before anything is sent: unknown names, missing required ones and
   * non-string values are a "validation" result; a prompt the server does not list is "not_found".
   */
  async get(
    session: Session,
    name: unknown,
    args: unknown,
    options: MCPRequestOptions,
  ): Promise<MCPRequestResult<MCPPromptMessages>> {
    const start = this.#context.now();
    const { serverName } = this.#context;
    if (typeof name !== "string" || name.length === 0)
      return requestFailure(
        this.#context,
        start,
        "validation",
        "validation failed: prompts/get needs a non-empty prompt name",
      );
    const what = `prompts/get of "${name}"`;
    if (session.connection.serverCapabilities?.prompts === undefined) {
      return requestFailure(
        this.#context,
        start,
        "not_supported",
        `not supported: MCP server "${serverName}" did not declare the "prompts" capability, so ${what} cannot be sent`,
      );
    }
    let prompts: readonly MCPPrompt[];
    try {
      prompts = await this.#prompts.get(session);
    } catch (error) {
      const lost = session.state !== "open";
      return requestFailure(
        this.#context,
        start,
        lost ? "connection_lost" : "server_error",
        `${lost ? "connection lost" : "server error"}: could not list the prompts of MCP server "${serverName}" to find "${name}": ${describeCause(error)}`,
      );
    }
    const prompt = prompts.find((candidate) => candidate.name === name);
    if (prompt === undefined)
      return requestFailure(
        this.#context,
        start,
        "not_found",
        `Prompt "${name}" not found on MCP server "${serverName}"; call listPrompts() to see the available prompts.`,
      );
    const problem = checkPromptArguments(prompt, args ?? {});
    if (problem !== undefined)
      return requestFailure(
        this.#context,
        start,
        "validation",
        `validation failed: arguments for prompt "${name}": ${problem}`,
      );
    const given = (args ?? {}) as Record<string, string>;
    return runRequest<MCPPromptMessages>(
      this.#context,
      session,
      {
        what,
        method: "prompts/get",
        params: Object.keys(given).length === 0 ? { name } : { name, arguments: given },
        options,
        accept: (raw) =>
          isRecord(raw) && Array.isArray(raw.messages)
            ? { data: raw as MCPPromptMessages }
            : { problem: 'no "messages" list' },
      },
      start,
    );
  }

  /** Suggested values for a prompt argument or a resource-template variable. */
  complete(
    session: Session,
    reference: MCPCompletionReference,
    argument: { name: string; value: string },
    options: MCPCompleteOptions,
  ): Promise<MCPRequestResult<MCPCompletion>> {
    const start = this.#context.now();
    const problem = checkCompletion(reference, argument, options.context);
    if (problem !== undefined)
      return Promise.resolve(
        requestFailure(this.#context, start, "validation", `validation failed: completion/complete ${problem}`),
      );
    const target =
      reference.type === "ref/prompt" ? `prompt "${reference.name}"` : `resource template "${reference.uri}"`;
    const what = `completion/complete of "${argument.name}" for ${target}`;
    if (session.connection.serverCapabilities?.completions === undefined) {
      return Promise.resolve(
        requestFailure(
          this.#context,
          start,
          "not_supported",
          `not supported: MCP server "${this.#context.serverName}" did not declare the "completions" capability, so ${what} cannot be sent`,
        ),
      );
    }
    return runRequest<MCPCompletion>(
      this.#context,
      session,
      {
        what,
        method: "completion/complete",
        params: {
          ref: reference,
          argument: { name: argument.name, value: argument.value },
          ...(options.context === undefined ? {} : { context: { arguments: options.context } }),
        },
        options,
        accept: (raw) => {
          const completion = isRecord(raw) ? raw.completion : undefined;
          if (
            !isRecord(completion) ||
            !Array.isArray(completion.values) ||
            !completion.values.every((value) => typeof value === "string")
          )
            return { problem: 'no "completion.values" list of strings' };
          return { data: completion as MCPCompletion };
        },
      },
      start,
    );
  }

  // ---------------------------------------------------------------- list changes

  addChangeListener(listener: PromptsChangedListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The server sent notifications/prompts/list_changed on `session`. */
  listChanged(session: Session): void {
    if (this.#context.current() !== session) return;
    this.#prompts.invalidate();
    if (this.#listeners.size > 0) this.#refresh.request();
  }

  async #refreshAndNotify(): Promise<void> {
    const session = this.#context.current();
    if (session === undefined) return;
    const { serverName, logger } = this.#context;
    let prompts: readonly MCPPrompt[];
    try {
      prompts = await this.#prompts.refresh(session);
    } catch (error) {
      logger?.warn?.(
        `Listing the prompts of MCP server "${serverName}" after prompts/list_changed failed: ${describeCause(error)}`,
        { error },
      );
      return;
    }
    const event = Object.freeze({ serverName, prompts });
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch (error) {
        logger?.warn?.(`An onPromptsChanged listener of MCP server "${serverName}" threw: ${describeCause(error)}`, {
          error,
        });
      }
    }
  }
}

/** Why `args` do not fit the prompt's declared arguments, or undefined when they do. */
export function checkPromptArguments(prompt: MCPPrompt, args: unknown): string | undefined {
  if (!isRecord(args)) return "must be an object of strings";
  const declared = prompt.arguments ?? [];
  const names = new Set(declared.map((argument) => argument.name));
  const problems: string[] = [];
  for (const [key, value] of Object.entries(args)) {
    if (!names.has(key))
      problems.push(
        `"${key}" is not an argument of this prompt${names.size === 0 ? " (it takes none)" : ` (it takes ${[...names].map((n) => `"${n}"`).join(", ")})`}`,
      );
    else if (typeof value !== "string") problems.push(`"${key}" must be a string`);
  }
  for (const argument of declared) {
    if (argument.required === true && args[argument.name] === undefined)
      problems.push(`required argument "${argument.name}" is missing`);
  }
  return problems.length === 0 ? undefined : problems.join("; ");
}

function checkCompletion(reference: unknown, argument: unknown, context: unknown): string | undefined {
  if (!isRecord(reference)) return 'needs a reference: { type: "ref/prompt", name } or { type: "ref/resource", uri }';
  if (
    reference.type === "ref/prompt"
      ? typeof reference.name !== "string"
      : reference.type !== "ref/resource" || typeof reference.uri !== "string"
  ) {
    return 'needs a reference: { type: "ref/prompt", name } or { type: "ref/resource", uri }';
  }
  if (!isRecord(argument) || typeof argument.name !== "string" || typeof argument.value !== "string")
    return "needs an argument { name, value } of strings";
  if (
    context !== undefined &&
    (!isRecord(context) || !Object.values(context).every((value) => typeof value === "string"))
  )
    return "context must be an object of strings";
  return undefined;
}
