import type { Logger } from "mcp-tool-adapter";
import type { MeterProvider, TracerProvider } from "@opentelemetry/api";
import { describeCause } from "@mcp-tool-adapter/core";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { DownstreamSession } from "./downstream-session.js";
import { WireTap } from "./pinned-legacy-channel.js";
import { MODERN_SDK_ANSWERED, spanSdkAnsweredRequests } from "./sdk-answered-spans.js";
import type { ModernServer } from "./stateless-endpoint.js";
import { sdkServeStdio, type ServeStdioLegacyProduct } from "./v2-serve-stdio-contract.js";

/** One stream connection in whichever era its client opens with. */
export interface EitherEraConnection {
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

export interface EitherEraOptions {
  /** The message stream (stdio, an in-memory pair); owned by the connection from here. */
  readonly transport: Transport;
  /** The 2026-07-28 handlers, pinned for the connection's lifetime. */
  readonly modern: () => ModernServer;
  /** A 2025-era session (SDK 1.x `Server`), pinned for the connection's lifetime. */
  readonly legacy: () => DownstreamSession;
  readonly logger: Logger | undefined;
  /** Where the spans of the requests the SDK answers go; default the globally registered provider. */
  readonly tracerProvider: TracerProvider | undefined;
  /** Where their durations go; default the globally registered provider. */
  readonly meterProvider: MeterProvider | undefined;
}

/**
 * The era decision for a stream is the official v2 SDK's `serveStdio`: it classifies the opening
 * message (an `initialize` or a message without the 2026-07-28 envelope is 2025 traffic; a
 * `server/discover` opens a probe that an `initialize` may still discard), pins one instance for
 * the connection, and serves `subscriptions/listen` itself on a 2026-07-28 connection. The gateway's
 * 2025 sessions run on SDK 1.x, so the legacy instance is the session behind the two methods
 * `serveStdio` calls on a legacy product (connect, close); its messages pass through untouched,
 * and once the connection is pinned to 2025 they go between the wire and the session directly
 * (see WireTap). What this leans on beyond the SDK's types is named and checked in
 * v2-serve-stdio-contract.ts.
 */
export function serveEitherEra(options: EitherEraOptions): EitherEraConnection {
  const { transport, logger } = options;
  const tap = new WireTap();
  const handle = sdkServeStdio(
    ({ era }) =>
      era === "modern"
        ? options.modern()
        : legacyProduct(options.legacy(), (channel) => tap.pinLegacy(channel), transport),
    {
      transport,
      onerror: (error) => {
        logger?.debug?.(`gateway: a stream client's message was refused or failed: ${describeCause(error)}`);
      },
    },
  );
  tap.attach(transport);
  // The 2026-07-28 requests the SDK answers itself; a 2025 session spans its own (DownstreamSession).
  spanSdkAnsweredRequests(
    transport,
    { tracerProvider: options.tracerProvider, meterProvider: options.meterProvider, networkTransport: "pipe" },
    MODERN_SDK_ANSWERED,
    true,
  );
  // serveStdio took the transport's onclose; chained here so the connection can say it ended.
  const closed = new Promise<void>((resolve) => {
    const previous = transport.onclose;
    transport.onclose = () => {
      previous?.();
      resolve();
    };
  });
  return {
    closed,
    close: async () => {
      await handle.close();
    },
  };
}

/**
 * A 2025 session as the legacy product `serveStdio` connects to its channel and closes at the end;
 * the client's end of it is noted on the stream (`wire`), not on the channel.
 */
function legacyProduct(
  session: DownstreamSession,
  pinned: (channel: Transport) => Transport,
  wire: Transport,
): ServeStdioLegacyProduct {
  return {
    connect: (channel) => session.connect(pinned(channel), wire),
    close: () => session.close(),
  };
}
