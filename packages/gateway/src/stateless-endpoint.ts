import type { Logger, MCPServerLogEntry } from "mcp-tool-adapter";
import { describeCause } from "@mcp-tool-adapter/core";
import {
  CLIENT_CAPABILITIES_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  createMcpHandler,
  inputRequired,
  inputResponse,
  ProtocolError,
  Server,
  type CallToolResult,
  type ClientCapabilities,
  type Implementation,
  type InputRequiredResult,
  type McpHttpHandler,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { MeterProvider, TracerProvider } from "@opentelemetry/api";
import { approvalAnswer, approvalStep, type GatewayApproval } from "./approval.js";
import type { Catalog, CatalogTool } from "./catalog.js";
import type { ServerSetAdapter } from "mcp-tool-adapter";
import type { ClientRouter } from "./client-router.js";
import type { RoutedClient } from "./forward-client-requests.js";
import {
  callToolResult,
  complete,
  failure,
  findCallTarget,
  getPrompt,
  invokeUpstream,
  listToolsResult,
  readResource,
} from "./gateway-requests.js";
import { inRequestSpan, type SpanConnection, type SpannedRequest } from "./request-span.js";
import { spanSdkAnsweredExchange } from "./sdk-answered-spans.js";
import { ModernCall, type CallRound, type RoundOutcome, type UpstreamOutcome } from "./modern-call.js";
import { DEFAULT_INPUT_TIMEOUT_MS, PendingCalls } from "./pending-calls.js";
import { createRequestStateSeal, type RequestStateSeal, type SealedCall } from "./request-state-seal.js";
import { createHeldCallRetries, type GoneHolder, type HeldCallRetries } from "./held-call-retries.js";
import { rerunArguments } from "./held-call-rerun.js";
import type { MCPInputRetry } from "@mcp-tool-adapter/adapter";
import { checkSealedRetry, passUpstreamInput } from "./upstream-input.js";

/** The low-level v2 `Server` the 2026-07-28 handlers live on (see statelessServer for why not McpServer). */
// eslint-disable-next-line @typescript-eslint/no-deprecated -- the low-level server on purpose
export type ModernServer = Server;

/** What the stateless endpoint answers from: the gateway's shared catalog and policy, nothing per client. */
export interface StatelessContext {
  readonly catalog: Catalog;
  readonly router: ClientRouter<RoutedClient>;
  readonly serverInfo: Implementation;
  readonly approval: GatewayApproval | undefined;
  readonly logger: Logger | undefined;
  readonly tracerProvider: TracerProvider | undefined;
  readonly meterProvider: MeterProvider | undefined;
  /** How long a call that asked the client for input waits for its retry (default five minutes). */
  readonly inputTimeoutMs?: number | undefined;
  /** How many calls may wait for their client's answer at once (default DEFAULT_MAX_CALLS_AWAITING_INPUT). */
  readonly maxCallsAwaitingInput?: number | undefined;
  /** The secret every copy shares to seal the state of an upstream's passed-on `input_required` (default: this process's own). */
  readonly requestStateKey?: string | undefined;
  /** Where the other copies reach this copy directly (checked by checkPeerUrl): its waiting calls' retries may then land on any copy. */
  readonly peerUrl?: string | undefined;
}

/** The endpoint's own bookkeeping next to the shared context: nothing here outlives a call. */
interface ModernContext extends StatelessContext {
  /** Calls waiting for a client's retry, by requestState. */
  readonly pending: PendingCalls;
  /** Calls with a request of their client running now (where upstream logs go). */
  readonly running: Set<ModernCall>;
  /** Seals what the retry of a 2026-07-28 upstream's input_required needs into its requestState. */
  readonly seal: RequestStateSeal;
  /** Which copy holds a waiting call, and the retries passed on to the copy that holds theirs. */
  readonly held: HeldCallRetries;
}

/** The 2026-07-28 side of the gateway: one HTTP exchange in, one answer out, no session. */
export interface StatelessEndpoint {
  /** Answers one 2026-07-28 request (fetch-shaped); `parsedBody` is the JSON body when already read. */
  fetch(request: Request, parsedBody?: unknown): Promise<Response>;
  /**
   * A fresh SDK `Server` answering 2026-07-28 requests from the shared catalog with the same
   * handlers as `fetch`: what a stdio connection that opened in that era is pinned to.
   */
  createServer(): ModernServer;
  /** Tells the open `subscriptions/listen` streams (HTTP, and stdio connections pinned to 2026-07-28) that a list changed. */
  listChanged(list: "tools" | "prompts" | "resources"): void;
  /** An upstream's log message, to the 2026-07-28 requests whose calls run on that upstream now. */
  forwardLog(entry: MCPServerLogEntry): void;
  /** Ends the streams and exchanges in flight, and gives up the calls waiting for a client's answers. */
  close(): Promise<void>;
}

/** The key of the approval question in an `input_required` result, and of its answer in the retried call. */
const APPROVAL_INPUT_KEY = "gateway_approval";

/**
 * Serves the 2026-07-28 revision statelessly (`createMcpHandler` of the official v2 SDK, strict
 * modern: 2025 traffic goes to the session path, never here): each request gets a fresh SDK
 * `Server` answering from the shared catalog, so any copy of the gateway can answer any request.
 * An approval question is an `input_required` result and the client's answer comes back in the
 * retried call, so the retry may land on another copy.
 */
export function createStatelessEndpoint(shared: StatelessContext): StatelessEndpoint {
  const seal = createRequestStateSeal({
    key: shared.requestStateKey,
    lifetimeMs: shared.inputTimeoutMs ?? DEFAULT_INPUT_TIMEOUT_MS,
  });
  const httpSpans: SpanConnection = {
    tracerProvider: shared.tracerProvider,
    meterProvider: shared.meterProvider,
    networkTransport: "tcp",
  };
  const context: ModernContext = {
    ...shared,
    pending: new PendingCalls({ timeoutMs: shared.inputTimeoutMs, maxCalls: shared.maxCallsAwaitingInput }),
    running: new Set(),
    seal,
    held: createHeldCallRetries({ seal, peerUrl: shared.peerUrl, spans: httpSpans, logger: shared.logger }),
  };
  const handler: McpHttpHandler = createMcpHandler(() => statelessServer(context, "tcp"), {
    legacy: "reject",
    onerror: (error) => {
      context.logger?.debug?.(`gateway: a 2026-07-28 request was refused or failed: ${describeCause(error)}`);
    },
  });
  // Servers pinned to stdio connections: their change notifications are what `serveStdio` turns
  // into the connection's `subscriptions/listen` messages.
  const pinned = new Set<ModernServer>();
  const notify = {
    tools: () => {
      handler.notify.toolsChanged();
      for (const server of pinned) void server.sendToolListChanged().catch(() => undefined);
    },
    prompts: () => {
      handler.notify.promptsChanged();
      for (const server of pinned) void server.sendPromptListChanged().catch(() => undefined);
    },
    resources: () => {
      handler.notify.resourcesChanged();
      for (const server of pinned) void server.sendResourceListChanged().catch(() => undefined);
    },
  };
  // What the SDK answers here without the gateway's handlers gets its span from the exchange.
  const answerHere = (request: Request, parsedBody: unknown): Promise<Response> =>
    spanSdkAnsweredExchange(parsedBody, httpSpans, () =>
      handler.fetch(request, parsedBody === undefined ? {} : { parsedBody }),
    );
  return {
    fetch: (request, parsedBody) =>
      // A retry of a call another copy holds is passed on to it; everything else is answered here.
      context.held.route(request, parsedBody, answerHere) ?? answerHere(request, parsedBody),
    createServer: () => {
      const server = statelessServer(context, "pipe");
      const previous = server.onclose;
      server.onclose = () => {
        pinned.delete(server);
        previous?.();
      };
      pinned.add(server);
      return server;
    },
    listChanged: (list) => notify[list](),
    forwardLog: (entry) => {
      for (const call of context.running) if (call.server === entry.serverName) call.log(entry);
    },
    close: async () => {
      context.held.close();
      context.pending.close();
      pinned.clear();
      await handler.close();
    },
  };
}

// The low-level Server, not McpServer, as in the 2025 sessions: tools and prompts come from
// upstream servers with their JSON Schemas as they are.
// eslint-disable-next-line @typescript-eslint/no-deprecated -- see above: the low-level server on purpose
function statelessServer(context: ModernContext, networkTransport: SpanConnection["networkTransport"]): Server {
  const { catalog } = context;
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- see above
  const server = new Server(context.serverInfo, {
    capabilities: {
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { listChanged: true },
      completions: {},
      // Upstream logs during a call go out on that call's request (at the envelope's log level).
      logging: {},
    },
  });
  // Every request the gateway answers itself runs in its SERVER span (request-span.ts); what the
  // SDK answers on its own gets its span from the message stream (sdk-answered-spans.ts).
  const spans: SpanConnection = {
    tracerProvider: context.tracerProvider,
    meterProvider: context.meterProvider,
    networkTransport,
  };
  server.setRequestHandler("tools/list", (request, ctx) =>
    inRequestSpan(spanned(request, ctx), spans, () => sdkErrors(() => listToolsResult(catalog))),
  );
  server.setRequestHandler("tools/call", (request, ctx) =>
    inRequestSpan(spanned(request, ctx), spans, () =>
      sdkErrors(() => callTool(context, { params: request.params, ctx })),
    ),
  );
  server.setRequestHandler("prompts/list", (request, ctx) =>
    inRequestSpan(spanned(request, ctx), spans, () =>
      sdkErrors(async () => ({ prompts: await catalog.listPrompts() })),
    ),
  );
  server.setRequestHandler("prompts/get", (request, ctx) =>
    inRequestSpan(spanned(request, ctx), spans, () =>
      sdkErrors(() => getPrompt(catalog, request.params, ctx.mcpReq.signal)),
    ),
  );
  server.setRequestHandler("resources/list", (request, ctx) =>
    inRequestSpan(spanned(request, ctx), spans, () =>
      sdkErrors(async () => ({ resources: await catalog.listResources() })),
    ),
  );
  server.setRequestHandler("resources/templates/list", (request, ctx) =>
    inRequestSpan(spanned(request, ctx), spans, () =>
      sdkErrors(async () => ({ resourceTemplates: await catalog.listResourceTemplates() })),
    ),
  );
  server.setRequestHandler("resources/read", (request, ctx) =>
    inRequestSpan(spanned(request, ctx), spans, () =>
      sdkErrors(() => readResource(catalog, request.params.uri, ctx.mcpReq.signal)),
    ),
  );
  server.setRequestHandler("completion/complete", (request, ctx) =>
    inRequestSpan(spanned(request, ctx), spans, () =>
      sdkErrors(() => complete(catalog, request.params, ctx.mcpReq.signal)),
    ),
  );
  return server;
}

async function callTool(
  context: ModernContext,
  request: {
    params: {
      name: string;
      arguments?: Record<string, unknown> | undefined;
      _meta?: Record<string, unknown> | undefined;
    };
    ctx: ServerContext;
  },
): Promise<CallToolResult | InputRequiredResult> {
  const { params, ctx } = request;
  const round = {
    ctx,
    capabilities: declaredCapabilities(ctx),
    progressToken: progressTokenOf(params._meta),
  };
  const state = ctx.mcpReq.requestState<string>();
  if (typeof state === "string" && context.seal.isSealed(state)) {
    const sealed = context.seal.open(state);
    // A call waiting in a copy (this one: the HTTP endpoint passed the others' on), or a 2026-07-28 upstream's own state.
    if (sealed.holder === undefined) return resumeUpstream(context, { sealed, params, round });
    const held = context.held.whereHeld(sealed.holder, ctx.http?.req);
    if ("parked" in held) return resumeWaiting(context, held.parked, { tool: params.name, round });
    return rerunCall(context, { sealed, gone: held.gone, name: params.name, round });
  }
  if (typeof state === "string") return resumeWaiting(context, state, { tool: params.name, round });
  const target = findCallTarget(context.catalog, params.name);
  if ("failure" in target) return target.failure;
  const args = params.arguments ?? {};
  const step = await approvalStep({
    approval: context.approval,
    tool: target.tool,
    args,
    clientDeclaresElicitation: round.capabilities?.elicitation !== undefined,
  });
  if (step.kind === "refused") return failure(step.reason);
  if (step.kind === "ask") {
    const answer = inputResponse(ctx.mcpReq.inputResponses, APPROVAL_INPUT_KEY);
    if (answer.kind !== "elicit")
      return inputRequired({ inputRequests: { [APPROVAL_INPUT_KEY]: inputRequired.elicit(step.request) } });
    const refusal = approvalAnswer(target.tool, answer);
    if (refusal !== undefined) return failure(refusal);
  }
  return startCall(context, { target, args, round, retry: {} });
}

/** Starts the upstream call of a 2026-07-28 client's request and serves its first round. */
function startCall(
  context: ModernContext,
  start: {
    target: { tool: CatalogTool; adapter: ServerSetAdapter };
    args: Record<string, unknown>;
    round: CallRound;
    retry: MCPInputRetry;
  },
): Promise<CallToolResult | InputRequiredResult> {
  const { target, args, round, retry } = start;
  const call = new ModernCall({
    server: target.tool.server,
    tool: target.tool.exposedName,
    args,
    capabilities: target.tool.capabilities,
  });
  const upstream = async (): Promise<UpstreamOutcome> => {
    const result = await invokeUpstream<RoutedClient>({
      ...target,
      args,
      client: call,
      router: context.router,
      signal: call.signal,
      onProgress: (progress) => {
        call.progress(progress);
      },
      inputRetry: retry,
    });
    if (result.inputRequired !== undefined) return { upstreamInput: result.inputRequired };
    return { result: callToolResult(target.tool, result) };
  };
  call.run(upstream());
  return serveRound(context, call, round);
}

/** The retry of a call waiting in this copy under `parked`: its answers go up, and it serves the round. */
function resumeWaiting(
  context: ModernContext,
  parked: string,
  retry: { tool: string; round: CallRound },
): Promise<CallToolResult | InputRequiredResult> {
  const { round } = retry;
  const { ctx } = round;
  const call = context.pending.take(parked, {
    tool: retry.tool,
    check: (waiting) => {
      waiting.checkAnswers(ctx.mcpReq.inputResponses, ctx.mcpReq.droppedInputResponseKeys);
    },
  });
  call.answer(ctx.mcpReq.inputResponses);
  return serveRound(context, call, round);
}

/**
 * The retry of a call whose upstream (a 2026-07-28 server) answered `input_required`: the sealed
 * state names the upstream and tool and carries the upstream's own state, so any copy of the
 * gateway can send the retry on, with the client's answers. The approval, if any, was given before
 * the first upstream call, which the sealed state proves.
 */
async function resumeUpstream(
  context: ModernContext,
  retry: {
    sealed: SealedCall;
    params: { name: string; arguments?: Record<string, unknown> | undefined };
    round: CallRound;
  },
): Promise<CallToolResult | InputRequiredResult> {
  const { params, round, sealed } = retry;
  const target = findCallTarget(context.catalog, params.name);
  checkSealedRetry(sealed, { tool: params.name, server: "tool" in target ? target.tool.server : undefined });
  if ("failure" in target) return target.failure;
  const inputResponses = round.ctx.mcpReq.inputResponses;
  return startCall(context, {
    target,
    args: params.arguments ?? {},
    round,
    retry: {
      ...(inputResponses === undefined ? {} : { inputResponses }),
      ...(sealed.upstreamState === undefined ? {} : { requestState: sealed.upstreamState }),
    },
  });
}

/**
 * The retry of a call whose holder copy is gone (held-call-retries.ts): run again here when its
 * tool is safe to repeat, from its first round, with the sealed arguments and none of the retry's
 * answers (held-call-rerun.ts says why); REQUEST_STATE_HOLDER_GONE, saying why, otherwise. The
 * approval, if any, was given before the first run, which the sealed state proves, for exactly
 * these arguments.
 */
function rerunCall(
  context: ModernContext,
  retry: { sealed: SealedCall; gone: GoneHolder; name: string; round: CallRound },
): Promise<CallToolResult | InputRequiredResult> | CallToolResult {
  const { sealed, gone, name, round } = retry;
  const target = findCallTarget(context.catalog, name);
  checkSealedRetry(sealed, { tool: name, server: "tool" in target ? target.tool.server : undefined });
  if ("failure" in target) return target.failure;
  const args = rerunArguments(sealed, gone, target.tool);
  return startCall(context, { target, args, round, retry: {} });
}

/**
 * One request of a call: its result, or the upstream's questions as `input_required` with the
 * `requestState` the retry brings back (the call waits parked meanwhile). While the request runs,
 * the call hears the upstream's logs.
 */
async function serveRound(
  context: ModernContext,
  call: ModernCall,
  round: CallRound,
): Promise<CallToolResult | InputRequiredResult> {
  context.running.add(call);
  let outcome: RoundOutcome;
  try {
    outcome = await call.serve(round);
  } catch (error) {
    context.pending.release(call);
    throw error;
  } finally {
    context.running.delete(call);
  }
  if ("result" in outcome) {
    context.pending.release(call);
    return outcome.result;
  }
  if ("upstreamInput" in outcome) {
    context.pending.release(call);
    return passUpstreamInput(context.seal, {
      server: call.server,
      tool: call.tool,
      input: outcome.upstreamInput,
      capabilities: round.capabilities,
    });
  }
  const parked = context.pending.park(call);
  return inputRequired({
    inputRequests: outcome.inputRequests,
    requestState: context.held.stateFor(call, parked),
  });
}

function progressTokenOf(meta: Record<string, unknown> | undefined): string | number | undefined {
  const token = meta?.["progressToken"];
  return typeof token === "string" || typeof token === "number" ? token : undefined;
}

/** The client capabilities this request declares in its `_meta` envelope (2026-07-28 has no session to hold them). */
/** A request as its span sees it: the SDK lifts the revision it names off `_meta` into the envelope. */
function spanned(request: { method: string; params?: object | undefined }, ctx: ServerContext): SpannedRequest {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const version = envelope?.[PROTOCOL_VERSION_META_KEY];
  return {
    method: request.method,
    params: request.params,
    id: ctx.mcpReq.id,
    protocolVersion: typeof version === "string" ? version : undefined,
  };
}

function declaredCapabilities(ctx: ServerContext): ClientCapabilities | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
}

/**
 * Runs the shared request code for the v2 server. That code speaks SDK 1.x types and errors: the
 * results are the same wire shapes under the other SDK's type names (so they pass as the result
 * the handler must return), and an SDK 1.x error becomes the v2 `ProtocolError` with its code and message.
 */
async function sdkErrors<Result>(work: () => unknown): Promise<Result> {
  try {
    return (await work()) as Result;
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === "number" && error instanceof Error) {
      throw new ProtocolError(code, error.message.replace(/^MCP error -?\d+: /, ""));
    }
    throw error;
  }
}
