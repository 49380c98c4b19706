import type { MCPServerConfig } from "../config-schema.js";
import type { Session } from "../session.js";

/** Who the server is, as far as its tool list goes: same fingerprint, same listing. */
export interface ServerFingerprint {
  /** How it is reached: the transport and the command line or URL (not headers or env: secrets). */
  readonly endpoint: readonly unknown[];
  readonly serverInfo: unknown;
  readonly protocolVersion: string | undefined;
  readonly capabilities: unknown;
}

/** The parts of a config that say which server it reaches. */
export function endpointOf(config: MCPServerConfig): readonly unknown[] {
  return config.transport === "stdio"
    ? ["stdio", config.command, config.args ?? [], config.cwd ?? null]
    : [config.transport, config.url];
}

/** JSON with object keys sorted, so equal values give equal text whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

/**
 * A short stable name for a text (two FNV-1a 32-bit hashes, 16 hex digits): the cache key of a
 * server. Only a name: the entry holds the whole fingerprint and is compared in full.
 */
export function shortHash(text: string): string {
  let first = 0x811c9dc5;
  let second = 0x01000193 ^ text.length;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    first = Math.imul(first ^ code, 0x01000193) >>> 0;
    second = Math.imul(second ^ code, 0x5bd1e995) >>> 0;
  }
  return first.toString(16).padStart(8, "0") + second.toString(16).padStart(8, "0");
}

/** The fingerprint of the server `config` reaches, as it introduced itself on `session`. */
export function serverFingerprint(config: MCPServerConfig, session: Session): ServerFingerprint {
  const { serverInfo, protocolVersion, serverCapabilities } = session.connection;
  return { endpoint: endpointOf(config), serverInfo, protocolVersion, capabilities: serverCapabilities ?? null };
}
