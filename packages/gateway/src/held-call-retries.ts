import { randomBytes } from "node:crypto";
import type { Logger } from "mcp-tool-adapter";
import { isSafeToRepeat } from "@mcp-tool-adapter/adapter";
import type { ToolCapabilities } from "@mcp-tool-adapter/registry";
import { isRecord } from "@mcp-tool-adapter/core/value-rules";
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { propagation, type Context } from "@opentelemetry/api";
import { GatewayError } from "./errors.js";
import { eventOfJsonText } from "./event-stream.js";
import { createPeerRelay, FORWARDED_HEADER, type CutOffRest, type PeerRelay } from "./peer-relay.js";
import type { CallHolder, RequestStateSeal, SealedCall } from "./request-state-seal.js";
import type { SpanConnection } from "./request-span.js";
import { spanRelayedExchange, type WireRequest } from "./sdk-answered-spans.js";

// A 2025-era upstream asks its questions with requests of its own, during the call: the call cannot
// be written into the requestState (as a 2026-07-28 upstream's own state is), it waits in the copy
// that asked. So that the retry may still reach any copy, that state is sealed with the address of
// the copy holding the call (its peerUrl) and the call's key there; a copy that gets a retry it
// does not hold passes the exchange on to the holder and relays the answer.
//
// Why forward rather than start the call again where the retry landed: running the tool again would
// repeat whatever it did before it asked (a write, a payment), and the upstream may not ask the same
// question the second time either. Passing the exchange on keeps the one call that is waiting, and
// costs one more hop for a retry that lands on another copy (only those).
//
// When the holder is gone (killed, stopped, restarted, unreachable, or cut off before its answer
// began) its call and the upstream's open request died with it. Then the copy the retry reached
// runs the call again itself, if and only if its tool is safe to repeat: read-only or idempotent
// by the gateway's own view of it (the config's overrides, then annotations, then name: the rule
// the adapter's recovery uses, isSafeToRepeat). Such a call may run twice by definition, so losing
// it would be the only harm; the rerun's result, or its upstream's next question (a new state
// naming this copy), answers the retry. For that the state of a call safe to repeat carries its
// arguments (sealed and authenticated like the rest: the rerun runs exactly what was asked, and
// approved if approval applied); a write's state carries none, since they could never be used, and
// its retry still gets REQUEST_STATE_HOLDER_GONE, saying why it was not run again.
//
// The same holds when the holder dies while streaming its answer to a forwarded retry, before the
// response itself went through (only notifications, progress or logs, relayed so far, or nothing):
// the client's exchange is still open, its headers (an event stream) sent, so the rerun's messages
// (its notifications, a new input_required, or the result) follow those relayed in the same stream
// and the client sees one answer. A response relayed in full ends the exchange as it is (nothing
// runs again); a client gone by then gets nothing, and its leaving cancels a rerun under way (the
// stream it reads is the rerun's). A holder that answered with one JSON body, cut off, relayed
// nothing: that is a holder gone before its answer began. A rerun never forwards (it is answered by
// this copy's handler), so no exchange goes round.

/** Where this copy is reached by the others, and its identity for the life of the process. */
export interface ThisCopy {
  readonly url: string;
  readonly copy: string;
}

export interface HeldCallRetries {
  /** This copy, when it has a peerUrl: its waiting calls' states are then sealed with its address. */
  readonly self: ThisCopy | undefined;
  /** The requestState the client gets for a call parked here under `parked` (with its arguments when its tool is safe to repeat and other copies may get the retry). */
  stateFor(call: CallToSeal, parked: string): string;
  /**
   * Where the call a sealed state names is: parked here (its key), or gone, when `route` found its
   * holder gone for this very `request` (the call may then run again here). Otherwise
   * REQUEST_STATE_HOLDER_GONE: another copy holds it and this retry reached this copy where it
   * cannot be passed on (stdio).
   */
  whereHeld(
    holder: CallHolder,
    request: Request | undefined,
  ): { readonly parked: string } | { readonly gone: GoneHolder };
  /**
   * Passes an HTTP exchange on when it is the retry of a call another copy holds, and resolves with
   * the answer to relay (or the error saying the holder is gone); undefined when this copy answers
   * the request itself (anything else, and a retry this copy holds or cannot read). A retry whose
   * holder is gone is answered here by `answerHere` (which may run the call again, see whereHeld).
   */
  route(request: Request, body: unknown, answerHere: AnswerHere): Promise<Response> | undefined;
  /** Ends the exchanges passed on in flight and the connections to the other copies. */
  close(): void;
}

/** A call about to wait here: what its sealed state needs. */
export interface CallToSeal {
  readonly server: string;
  readonly tool: string;
  readonly args: Record<string, unknown>;
  /** The gateway's view of the tool (the config's overrides applied): whether its arguments go into the state. */
  readonly capabilities: ToolCapabilities;
}

/** The copy that held a call and is gone, and how this copy found out (for the retry's error or the rerun's span). */
export interface GoneHolder {
  readonly holder: CallHolder;
  readonly why: string;
}

/** This copy's own answer to a request (the SDK's handler). */
export type AnswerHere = (request: Request, body: unknown) => Promise<Response>;

export interface HeldCallRetriesOptions {
  readonly seal: RequestStateSeal;
  /** This copy's peerUrl (checked by checkPeerUrl); undefined: its waiting calls keep a plain key, reachable only here. */
  readonly peerUrl: string | undefined;
  readonly spans: SpanConnection;
  readonly logger: Logger | undefined;
  readonly connectTimeoutMs?: number | undefined;
}

export function createHeldCallRetries(options: HeldCallRetriesOptions): HeldCallRetries {
  const { seal, logger, spans } = options;
  const self: ThisCopy | undefined =
    options.peerUrl === undefined ? undefined : { url: options.peerUrl, copy: randomBytes(12).toString("base64url") };
  let relay: PeerRelay | undefined;
  const relayOf = (): PeerRelay =>
    (relay ??= createPeerRelay({ hopKey: seal.deriveKey("peer hop v1"), connectTimeoutMs: options.connectTimeoutMs }));
  // The retries whose holder route found gone, for this copy's handler to answer (whereHeld): keyed
  // by the request object itself, so nothing a client sends can claim a holder is gone.
  const goneFor = new WeakMap<Request, GoneHolder>();
  const answerGone = (answerHere: AnswerHere, request: Request, body: unknown, gone: GoneHolder): Promise<Response> => {
    goneFor.set(request, gone);
    return answerHere(request, body);
  };

  return {
    self,
    stateFor(call, parked) {
      if (self === undefined) return parked;
      const { server, tool, args, capabilities } = call;
      return seal.seal({
        server,
        tool,
        holder: { ...self, parked },
        ...(isSafeToRepeat(capabilities) ? { arguments: args } : {}),
      });
    },
    whereHeld(holder, request) {
      if (holder.copy === self?.copy) return { parked: holder.parked };
      const gone = request === undefined ? undefined : goneFor.get(request);
      if (gone !== undefined) return { gone };
      throw holderGone(
        holder,
        "holds it, and this retry reached another copy on a connection it cannot be passed on from",
      );
    },
    route(request, body, answerHere) {
      const retry = heldRetryOf(body, seal);
      if (retry === undefined) return undefined;
      const { id, state } = retry;
      const hop = request.headers.has(FORWARDED_HEADER) ? relayOf().hopOf(request, state) : "none";
      if (hop === "forged") return Promise.resolve(errorAnswer(id, forgedHop()));
      let sealed: SealedCall;
      try {
        sealed = seal.open(state);
      } catch {
        return undefined; // the tools/call handler refuses it, saying why
      }
      const holder = sealed.holder;
      if (holder === undefined || holder.copy === self?.copy) return undefined;
      if (hop === "valid") {
        // Passed on once already and not held here: never passed on again (no loop through a peerUrl that leads elsewhere).
        const why = `is no longer at ${holder.url}: that copy restarted, or its peerUrl leads to another copy (a balancer's address) rather than to it directly`;
        return answerGone(answerHere, request, body, { holder, why });
      }
      if (holder.url === self?.url) {
        // This copy's own address, another process: the holder was this copy before it restarted.
        return answerGone(answerHere, request, body, {
          holder,
          why: `was at ${holder.url}, where this copy runs now: it restarted`,
        });
      }
      const wire: WireRequest = { method: "tools/call", id, params: retry.params };
      return spanRelayedExchange(wire, spans, async (active) => {
        const outcome = await relayOf().forward(
          { holderUrl: holder.url, request, body: withTraceContext(body as Record<string, unknown>, active), state },
          async ({ cause, responded }) => {
            // Answered in full before the cut: the client has its response, nothing runs again.
            if (responded || request.signal.aborted) return undefined;
            logger?.warn?.(`gateway: the copy at ${holder.url} stopped while answering a forwarded retry: ${cause}`);
            const gone = { holder, why: `stopped while answering (${cause})` };
            // Cut off before its response: answered here, as a retry whose holder is gone, in the
            // same exchange (its headers, an event stream, went out already): a call safe to repeat
            // runs again and its messages follow those relayed; a write gets the error saying why not.
            const here = await answerGone(
              answerHere,
              request,
              withTraceContext(body as Record<string, unknown>, active),
              gone,
            );
            // An empty answer (none is expected for a tools/call) still leaves the client one: the error.
            return (await asEvents(here)) ?? eventOfJsonText(errorMessage(id, holderGone(holder, gone.why)));
          },
        );
        if (outcome.kind === "answered") return outcome.response;
        logger?.warn?.(`gateway: the copy at ${holder.url} holding a call could not be reached: ${outcome.cause}`);
        const gone = { holder, why: `cannot be reached (${outcome.cause})` };
        // A client that went away gets nothing: no call runs again for it.
        if (request.signal.aborted) return errorAnswer(id, holderGone(holder, gone.why));
        // Answered here in this exchange's span, whose context the local answer's span takes as its parent.
        return answerGone(answerHere, request, withTraceContext(body as Record<string, unknown>, active), gone);
      });
    },
    close() {
      relay?.close();
    },
  };
}

/**
 * Checks a peerUrl where the gateway's options are checked: an http(s) URL with no credentials,
 * query or fragment, and a shared requestStateKey beside it (a copy without the others' key cannot
 * open their states, so none could pass a retry to it).
 */
export function checkPeerUrl(peerUrl: unknown, requestStateKey: string | undefined): string | undefined {
  if (peerUrl === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = typeof peerUrl === "string" ? new URL(peerUrl) : undefined;
  } catch {
    url = undefined;
  }
  if (
    url === undefined ||
    (url.protocol !== "http:" && url.protocol !== "https:") ||
    url.username !== "" ||
    url.password !== "" ||
    url.search !== "" ||
    url.hash !== ""
  ) {
    throw new GatewayError(
      "GATEWAY_OPTIONS_INVALID",
      `peerUrl must be the http(s) URL of this copy's MCP endpoint as the other copies reach it directly (e.g. http://10.0.0.5:8931/mcp), with no credentials, query or fragment, and it is ${JSON.stringify(peerUrl)}.`,
    );
  }
  if (requestStateKey === undefined) {
    throw new GatewayError(
      "GATEWAY_OPTIONS_INVALID",
      "peerUrl needs requestStateKey: the copies pass retries to each other only with the secret they share (serve --request-state-key-env).",
    );
  }
  return url.href;
}

/** A tools/call whose requestState is sealed: what route needs of it. */
function heldRetryOf(
  body: unknown,
  seal: RequestStateSeal,
): { id: string | number; state: string; params: Record<string, unknown> } | undefined {
  if (!isRecord(body) || body["method"] !== "tools/call") return undefined;
  const params = body["params"];
  const id = body["id"];
  if (!isRecord(params) || (typeof id !== "string" && typeof id !== "number")) return undefined;
  const state = params["requestState"];
  return typeof state === "string" && seal.isSealed(state) ? { id, state, params } : undefined;
}

/** The request with this copy's span as its trace context (the holder's span becomes its child); as it is when nothing is traced. */
function withTraceContext(body: Record<string, unknown>, active: Context | undefined): Record<string, unknown> {
  if (active === undefined) return body;
  const params = body["params"] as Record<string, unknown>;
  const meta: Record<string, unknown> = { ...(isRecord(params["_meta"]) ? params["_meta"] : {}) };
  delete meta["traceparent"];
  delete meta["tracestate"];
  propagation.inject(active, meta);
  return { ...body, params: { ...params, _meta: meta } };
}

/** REQUEST_STATE_HOLDER_GONE: the copy holding the call is `why`; `notRerun` says why this copy did not run the call again. */
export function holderGone(holder: CallHolder, why: string, notRerun?: string): ProtocolError {
  const rerun = notRerun === undefined ? "" : ` It was not run again here: ${notRerun}.`;
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `The call this requestState continues waits in another gateway copy, which ${why}; the call cannot go on.${rerun} Call the tool again to start over.`,
    { code: "REQUEST_STATE_HOLDER_GONE", reason: "invalid_request_state", holder: holder.url },
  );
}

function forgedHop(): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InvalidRequest,
    "This request carries an Mcp-Gateway-Forwarded header that no gateway copy sharing this copy's requestStateKey signed (or it expired): only the copies themselves pass retries on. Send the retry without it.",
    { code: "FORWARD_UNAUTHENTICATED" },
  );
}

function errorMessage(id: string | number, error: ProtocolError): string {
  return JSON.stringify({ jsonrpc: "2.0", id, error: { code: error.code, message: error.message, data: error.data } });
}

/** A JSON-RPC error answering request `id`, as the 2026-07-28 endpoint answers one (HTTP 200, a JSON body). */
function errorAnswer(id: string | number, error: ProtocolError): Response {
  return new Response(errorMessage(id, error), { status: 200, headers: { "content-type": "application/json" } });
}

/** This copy's answer as events that continue a relayed event stream: its own stream, or its JSON body as one event (undefined: no body). */
async function asEvents(answer: Response): Promise<CutOffRest> {
  if (answer.headers.get("content-type")?.includes("text/event-stream") === true && answer.body !== null)
    return answer.body;
  const text = await answer.text();
  return text === "" ? undefined : eventOfJsonText(text);
}
