import { collectConfigSecrets, redactSecrets } from "@mcp-tool-adapter/core";
import type { MCPServerConfig } from "./config.js";
import type { Logger } from "./types.js";

/** How deep log data and error causes are copied when they carry a secret. */
const MAX_DEPTH = 6;

/**
 * Removes the credentials of one server config (header values, URL userinfo and query values)
 * from every text the adapter shows: error messages, result errors, log lines, error causes.
 * A server may echo a credential back (a JSON-RPC error quoting the Authorization header), and
 * the adapter would otherwise quote the server verbatim.
 */
export class Redactor {
  readonly #secrets: readonly string[];

  constructor(secrets: Iterable<string>) {
    this.#secrets = [...secrets].filter((secret) => secret.length > 0);
  }

  /** The secrets of a server config: nothing for stdio (its env goes to the process, not to messages). */
  static forConfig(config: MCPServerConfig): Redactor {
    if (config.transport === "stdio") return new Redactor([]);
    return new Redactor(collectConfigSecrets(config));
  }

  get active(): boolean {
    return this.#secrets.length > 0;
  }

  text(text: string): string {
    return this.active ? redactSecrets(text, this.#secrets) : text;
  }

  /**
   * The value itself when no secret occurs in it; otherwise a copy with every string redacted.
   * Errors keep their prototype, name and own fields (code, data...), so `isInstance` and
   * `instanceof` checks on a cause still work.
   */
  value<T>(value: T): T {
    if (!this.active) return value;
    return this.#copy(value, 0, new Map()) as T;
  }

  /** A logger that redacts every message and its data before passing them on. */
  logger(logger: Logger | undefined): Logger | undefined {
    if (logger === undefined || !this.active) return logger;
    const wrap = (level: keyof Logger): Logger[keyof Logger] => {
      if (logger[level] === undefined) return undefined;
      return (message: string, data?: Record<string, unknown>) => {
        if (data === undefined) logger[level]?.(this.text(message));
        else logger[level]?.(this.text(message), this.value(data));
      };
    };
    const safe: Logger = {};
    for (const level of ["debug", "info", "warn", "error"] as const) {
      const log = wrap(level);
      if (log !== undefined) safe[level] = log;
    }
    return safe;
  }

  #copy(value: unknown, depth: number, seen: Map<object, unknown>): unknown {
    if (typeof value === "string") return this.text(value);
    if (typeof value !== "object" || value === null) return value;
    if (depth > MAX_DEPTH) return value;
    const known = seen.get(value);
    if (known !== undefined) return known;
    if (Array.isArray(value)) {
      const items: unknown[] = [];
      seen.set(value, items);
      let changed = false;
      for (const item of value) {
        const copy = this.#copy(item, depth + 1, seen);
        changed ||= copy !== item;
        items.push(copy);
      }
      return changed ? items : value;
    }
    const prototype: unknown = Object.getPrototypeOf(value);
    if (!(value instanceof Error) && prototype !== Object.prototype && prototype !== null) return value;
    const copy = Object.create(prototype as object | null) as Record<string, unknown>;
    seen.set(value, copy);
    let changed = false;
    // Error's message, stack and cause are own properties, so they are copied here too.
    for (const key of Reflect.ownKeys(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      if (descriptor === undefined) continue;
      // An accessor (a future engine's `stack`) is read once and copied as data.
      const current: unknown = "value" in descriptor ? descriptor.value : readQuietly(value, key);
      const redacted = this.#copy(current, depth + 1, seen);
      changed ||= redacted !== current;
      Object.defineProperty(copy, key, {
        value: redacted,
        writable: true,
        configurable: true,
        enumerable: descriptor.enumerable ?? false,
      });
    }
    return changed ? copy : value;
  }
}

function readQuietly(target: object, key: string | symbol): unknown {
  try {
    return Reflect.get(target, key) as unknown;
  } catch {
    return undefined;
  }
}
