import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describeCause } from "@mcp-tool-adapter/core";
import type { McpRequestContext, Transport as StreamTransport } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { GatewayError } from "./errors.js";

/*
 * The gateway serves a stream through the official v2 SDK's `serveStdio` (it decides the era), but
 * its 2025 sessions run on SDK 1.x. So it hands `serveStdio` an SDK 1.x transport as the wire and,
 * for a 2025 connection, a product that is not a v2 server. That leans on what `serveStdio` does
 * beyond its types (checked against @modelcontextprotocol/server 2.4.0); this file names it, and
 * `checkServeStdioContract` checks it once at start-up so that an SDK that changed it fails with a
 * classified error instead of a connection that never answers.
 */

/** The eras `serveStdio` asks its factory for (its `McpRequestContext.era`). */
export type ServeStdioEra = McpRequestContext["era"];

/**
 * All `serveStdio` calls on a 2025-era product that is not a v2 `McpServer`: `connect` with the
 * connection's channel (used as an SDK 1.x transport: start, send, close, onmessage, onclose), and
 * `close` when the connection ends.
 */
export interface ServeStdioLegacyProduct {
  connect(channel: Transport): Promise<void>;
  close(): Promise<void>;
}

/** `serveStdio` as the gateway calls it: a factory by era, an SDK 1.x transport as the wire. */
export type ServeStdioEntry = (
  factory: (context: { readonly era: ServeStdioEra }) => unknown,
  options: { transport: Transport; onerror?: (error: Error) => void },
) => { close(): Promise<void> };

/** The installed `serveStdio`, typed as the gateway uses it (the one cast of the SDK's own types). */
export const sdkServeStdio: ServeStdioEntry = (factory, options) =>
  serveStdio(factory as Parameters<typeof serveStdio>[0], {
    ...options,
    // The SDK types both transports alike (start, send, close, onmessage, onclose, onerror).
    transport: options.transport as unknown as StreamTransport,
  });

export interface ServeStdioContractCheck {
  /** The `serveStdio` to check; default the installed SDK's. */
  readonly serveStdio?: ServeStdioEntry;
  /** How long the probe may take before it counts as broken (ms); default 5000. */
  readonly timeoutMs?: number;
}

const PROBE_INITIALIZE: JSONRPCMessage = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "contract-probe", version: "1" } },
};
const PROBE_ANSWER: JSONRPCMessage = { jsonrpc: "2.0", id: 0, result: {} };

/**
 * Serves one 2025 `initialize` through `serveStdio` over an in-memory wire and checks what the
 * gateway relies on: the factory is asked for the `legacy` era, the product's `connect` gets a
 * channel with start/send/close that delivers the message and writes to the wire, and closing
 * the handle closes the product and the wire. Rejects with GatewayError `SDK_INCOMPATIBLE`
 * naming the SDK's version when any of it fails.
 */
export async function checkServeStdioContract(check: ServeStdioContractCheck = {}): Promise<void> {
  const entry = check.serveStdio ?? sdkServeStdio;
  const timeoutMs = check.timeoutMs ?? 5_000;
  const failure = await Promise.race([
    probe(entry).catch((error: unknown) => `it threw ${describeCause(error)}`),
    new Promise<string>((resolve) => setTimeout(resolve, timeoutMs, `nothing happened within ${timeoutMs} ms`).unref()),
  ]);
  if (failure === undefined) return;
  throw new GatewayError(
    "SDK_INCOMPATIBLE",
    `gateway: @modelcontextprotocol/server ${installedServerVersion()} serveStdio no longer serves a 2025 connection as the gateway expects (${failure}); the gateway is checked against 2.4.0: install a version the gateway supports`,
  );
}

/** The first broken expectation, or undefined when all hold. */
async function probe(entry: ServeStdioEntry): Promise<string | undefined> {
  const wire = new ProbeWire();
  const eras: unknown[] = [];
  let channel: Transport | undefined;
  const seen = { closed: false };
  let deliver: (message: JSONRPCMessage) => void = () => undefined;
  let report: (error: Error) => void = () => undefined;
  const delivered = new Promise<JSONRPCMessage>((resolve) => (deliver = resolve));
  // serveStdio reports what failed while it served the opening (a throw in the product, say) here.
  const reported = new Promise<string>(
    (resolve) => (report = (error) => resolve(`it reported ${describeCause(error)}`)),
  );
  const product: ServeStdioLegacyProduct = {
    connect: async (given) => {
      channel = given;
      given.onmessage = deliver;
      await given.start();
    },
    close: () => {
      seen.closed = true;
      return Promise.resolve();
    },
  };
  const handle = entry(
    (context) => {
      eras.push(context.era);
      return product;
    },
    { transport: wire, onerror: (error) => report(error) },
  );
  await wire.started;
  if (wire.onmessage === undefined) return "it started the wire without reading from it";
  wire.onmessage(PROBE_INITIALIZE);
  const message = await Promise.race([delivered, reported]);
  if (typeof message === "string") return message;
  if (eras.join() !== "legacy") return `its factory was asked for ${JSON.stringify(eras)}, not ["legacy"]`;
  if ((message as { method?: unknown }).method !== "initialize") return "the channel delivered another message";
  if (channel === undefined || typeof channel.send !== "function" || typeof channel.close !== "function")
    return "the channel has no send or close";
  await channel.send(PROBE_ANSWER);
  if (!wire.sent.some((sent) => (sent as { id?: unknown }).id === 0))
    return "the channel's answer did not reach the wire";
  await handle.close();
  if (!seen.closed) return "closing the connection did not close the product";
  if (!wire.closed) return "closing the connection did not close the wire";
  return undefined;
}

/** An in-memory SDK 1.x transport for the probe: records what is sent and whether it was closed. */
class ProbeWire implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly sent: JSONRPCMessage[] = [];
  closed = false;
  #markStarted: () => void = () => undefined;
  /** Resolves when serveStdio starts the wire (it owns it from there). */
  readonly started = new Promise<void>((resolve) => (this.#markStarted = resolve));

  start(): Promise<void> {
    this.#markStarted();
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    this.sent.push(message);
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.closed = true;
    this.onclose?.();
    return Promise.resolve();
  }
}

/** The installed @modelcontextprotocol/server's version, for the error message ("unknown" when it cannot be read). */
function installedServerVersion(): string {
  try {
    const require = createRequire(import.meta.url);
    let directory = dirname(require.resolve("@modelcontextprotocol/server"));
    for (let depth = 0; depth < 4; depth += 1, directory = dirname(directory)) {
      try {
        const manifest = JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as {
          name?: string;
          version?: string;
        };
        if (manifest.name === "@modelcontextprotocol/server") return manifest.version ?? "unknown";
      } catch {
        // No package.json at this level: go up.
      }
    }
  } catch {
    // Not resolvable from here (a bundle): the message says "unknown".
  }
  return "unknown";
}

let installedChecked: Promise<void> | undefined;

/** `checkServeStdioContract` of the installed SDK, run once per process (the first stdio gateway waits for it). */
export function ensureServeStdioContract(): Promise<void> {
  installedChecked ??= checkServeStdioContract();
  return installedChecked;
}
