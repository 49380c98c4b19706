import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { isRecord } from "@mcp-tool-adapter/core/value-rules";
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { GatewayError } from "./errors.js";

/** What a sealed `requestState` carries: which upstream and tool the retry goes to, and the upstream's own state. */
export interface SealedCall {
  readonly server: string;
  /** The tool's name as the gateway exposes it (what the retry must call). */
  readonly tool: string;
  /** The upstream's `requestState`, echoed to it byte for byte; absent when it sent none. */
  readonly upstreamState?: string | undefined;
  /** A call waiting in one copy for this retry (a 2025-era upstream asked); absent for a 2026-07-28 upstream's state. */
  readonly holder?: CallHolder | undefined;
  /**
   * The waiting call's arguments, so that another copy can run it again when its holder is gone
   * (held-call-retries.ts): present only beside a holder, and only for a tool safe to repeat.
   */
  readonly arguments?: Record<string, unknown> | undefined;
}

/** The copy where a call waits for its retry, and the call's key there. */
export interface CallHolder {
  /** Where the other copies reach that copy's MCP endpoint directly (its `peerUrl`). */
  readonly url: string;
  /** That copy's identity for its life (a process restarted at the same URL is another copy). */
  readonly copy: string;
  /** The call's key among that copy's waiting calls. */
  readonly parked: string;
}

/**
 * Seals the `requestState` of an upstream's `input_required` that the gateway passes on, so that
 * the client's retry can reach any copy of the gateway: the state carries everything the retry
 * needs (for a call waiting in one copy: which copy holds it, see held-call-retries.ts), encrypted
 * and authenticated (AES-256-GCM) with a key every copy shares. A client can
 * neither read nor alter it, nor make one; a state sealed with another key, altered, or past its
 * lifetime is refused with REQUEST_STATE_UNKNOWN.
 */
export interface RequestStateSeal {
  seal(call: SealedCall): string;
  /**
   * A key of its own for another `purpose`, from the same shared secret (so copies sharing the
   * requestStateKey share it too, and it never equals the sealing key).
   */
  deriveKey(purpose: string): Buffer;
  /** Whether `state` has the shape of a sealed state (the gateway's own waiting calls have another). */
  isSealed(state: string): boolean;
  /** The call a sealed state carries; a ProtocolError (InvalidParams, REQUEST_STATE_UNKNOWN) when it cannot be trusted. */
  open(state: string): SealedCall;
}

export interface RequestStateSealOptions {
  /** The secret every copy shares (at least 32 characters); default a random one for this process alone. */
  readonly key?: string | undefined;
  /** How long a sealed state is good for. */
  readonly lifetimeMs: number;
  readonly now?: () => number;
}

/** The shortest secret accepted as a requestStateKey. */
export const MIN_REQUEST_STATE_KEY_LENGTH = 32;

const PREFIX = "mtag1.";
const IV_BYTES = 12;
const TAG_BYTES = 16;

interface SealedPayload {
  readonly s: string;
  readonly t: string;
  readonly u?: string;
  /** The holder: [url, copy, parked]. */
  readonly h?: readonly [string, string, string];
  /** The arguments of a waiting call safe to repeat. */
  readonly a?: Record<string, unknown>;
  /** Expiry, ms since the epoch. */
  readonly e: number;
}

export function createRequestStateSeal(options: RequestStateSealOptions): RequestStateSeal {
  const { key, lifetimeMs } = options;
  if (key !== undefined && (typeof key !== "string" || key.length < MIN_REQUEST_STATE_KEY_LENGTH)) {
    throw new GatewayError(
      "GATEWAY_OPTIONS_INVALID",
      `requestStateKey must be a secret of at least ${MIN_REQUEST_STATE_KEY_LENGTH} characters shared by every copy of the gateway (e.g. \`openssl rand -base64 48\`).`,
    );
  }
  const material = key ?? randomBytes(32);
  const deriveKey = (purpose: string): Buffer =>
    createHash("sha256").update(`mcp-tool-adapter gateway ${purpose}\0`).update(material).digest();
  const secret = deriveKey("requestState v1");
  const now = options.now ?? Date.now;
  return {
    deriveKey,
    seal(call) {
      const payload: SealedPayload = {
        s: call.server,
        t: call.tool,
        ...(call.upstreamState === undefined ? {} : { u: call.upstreamState }),
        ...(call.holder === undefined ? {} : { h: [call.holder.url, call.holder.copy, call.holder.parked] as const }),
        ...(call.arguments === undefined ? {} : { a: call.arguments }),
        e: now() + lifetimeMs,
      };
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", secret, iv);
      cipher.setAAD(Buffer.from(PREFIX));
      const body = Buffer.concat([cipher.update(JSON.stringify(payload), "utf8"), cipher.final()]);
      return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
    },
    isSealed: (state) => state.startsWith(PREFIX),
    open(state) {
      const bytes = Buffer.from(state.slice(PREFIX.length), "base64url");
      let payload: unknown;
      try {
        if (bytes.length <= IV_BYTES + TAG_BYTES) throw new Error("too short");
        const decipher = createDecipheriv("aes-256-gcm", secret, bytes.subarray(0, IV_BYTES));
        decipher.setAAD(Buffer.from(PREFIX));
        decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        const text = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
        payload = JSON.parse(text.toString("utf8"));
      } catch {
        throw unknownState(
          "it was not sealed by a gateway copy sharing this copy's requestStateKey, or it was altered; give every copy the same key",
        );
      }
      if (!isPayload(payload)) throw unknownState("its contents are not a gateway call");
      if (payload.e < now()) throw unknownState("it expired (a retry must come within inputTimeoutMs)");
      const holder =
        payload.h === undefined ? undefined : { url: payload.h[0], copy: payload.h[1], parked: payload.h[2] };
      return { server: payload.s, tool: payload.t, upstreamState: payload.u, holder, arguments: payload.a };
    },
  };
}

function isPayload(value: unknown): value is SealedPayload {
  const payload = value as Partial<SealedPayload> | null;
  return (
    typeof payload === "object" &&
    payload !== null &&
    typeof payload.s === "string" &&
    typeof payload.t === "string" &&
    (payload.u === undefined || typeof payload.u === "string") &&
    (payload.h === undefined || isHolder(payload.h)) &&
    (payload.a === undefined || isRecord(payload.a)) &&
    typeof payload.e === "number"
  );
}

function isHolder(value: unknown): boolean {
  return Array.isArray(value) && value.length === 3 && value.every((part) => typeof part === "string");
}

function unknownState(why: string): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `The requestState of this retried tools/call cannot be used: ${why}. Call the tool again to start over.`,
    { code: "REQUEST_STATE_UNKNOWN", reason: "invalid_request_state" },
  );
}
