import type { MCPEngineServer, MCPProtocolEra } from "@mcp-tool-adapter/core";

interface Verdict {
  readonly era: MCPProtocolEra;
  readonly at: number;
}

/**
 * What `auto` found out per server, so a reconnect skips the probe. A 2025 verdict expires: an
 * upgraded server still answers the 2025 handshake, so an old verdict would keep it on 2025
 * forever. A 2026 verdict is checked on every connect anyway (`server/discover` with no fallback),
 * and dropped when that fails.
 */
export class EraVerdicts {
  readonly #verdicts = new Map<string, Verdict>();
  readonly #legacyTtlMs: number;
  readonly #now: () => number;

  constructor(legacyTtlMs: number, now: () => number) {
    this.#legacyTtlMs = legacyTtlMs;
    this.#now = now;
  }

  get(server: MCPEngineServer): MCPProtocolEra | undefined {
    const key = keyOf(server);
    const verdict = this.#verdicts.get(key);
    if (verdict === undefined) return undefined;
    if (verdict.era === "2025" && this.#now() - verdict.at >= this.#legacyTtlMs) {
      this.#verdicts.delete(key);
      return undefined;
    }
    return verdict.era;
  }

  set(server: MCPEngineServer, era: MCPProtocolEra): void {
    this.#verdicts.set(keyOf(server), { era, at: this.#now() });
  }

  forget(server: MCPEngineServer): void {
    this.#verdicts.delete(keyOf(server));
  }
}

/** One server: its name and where it is (a renamed entry for the same URL is probed again, which is harmless). */
function keyOf(server: MCPEngineServer): string {
  return JSON.stringify([server.name, server.transport, server.url ?? server.command ?? null, server.args ?? null]);
}
