import type { MCPServerConfig } from "./config.js";
import type { Logger } from "./types.js";

const REDACTED = "[REDACTED]";
/** Header names whose values are secret however short they are. */
const SENSITIVE_HEADER = /auth|token|key|secret|cookie|session|password|credential/i;
/** Below this length a value of an ordinary header is too common a string to redact safely. */
const MIN_PLAIN_SECRET_LENGTH = 4;
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
    const variants = new Set<string>();
    for (const secret of secrets) {
      if (secret.length === 0) continue;
      variants.add(secret);
      const encoded = encodeURIComponent(secret);
      if (encoded !== secret) variants.add(encoded);
    }
    // Longest first, so a secret inside another leaves no tail behind.
    this.#secrets = [...variants].sort((a, b) => b.length - a.length);
  }

  /** The secrets of a server config: nothing for stdio (its env goes to the process, not to messages). */
  static forConfig(config: MCPServerConfig): Redactor {
    if (config.transport === "stdio") return new Redactor([]);
    const secrets = new Set<string>();
    for (const [name, value] of Object.entries(config.headers ?? {})) addHeaderSecrets(secrets, name, value);
    addUrlSecrets(secrets, config.url);
    return new Redactor(secrets);
  }

  get active(): boolean {
    return this.#secrets.length > 0;
  }

  text(text: string): string {
    let result = text;
    for (const secret of this.#secrets) {
      if (result.includes(secret)) result = result.split(secret).join(REDACTED);
    }
    return result;
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
      return (message: string, data?: unknown) => {
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
      Object.defineProperty(copy, key, { value: redacted, writable: true, configurable: true, enumerable: descriptor.enumerable ?? false });
    }
    return changed ? copy : value;
  }
}

function addHeaderSecrets(secrets: Set<string>, name: string, value: string): void {
  const trimmed = value.trim();
  const sensitive = SENSITIVE_HEADER.test(name);
  if (trimmed.length === 0 || (!sensitive && trimmed.length < MIN_PLAIN_SECRET_LENGTH)) return;
  secrets.add(trimmed);
  if (!sensitive) return;
  // "Bearer abc" -> also "abc": a server may echo the bare token back.
  const credential = /^\S+\s+(\S+)$/.exec(trimmed)?.[1];
  if (credential !== undefined) secrets.add(credential);
  if (/cookie/i.test(name)) {
    for (const pair of trimmed.split(";")) {
      const cookieValue = pair.slice(pair.indexOf("=") + 1).trim();
      if (pair.includes("=") && cookieValue.length > 0) secrets.add(cookieValue);
    }
  }
}

function addUrlSecrets(secrets: Set<string>, raw: string): void {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return;
  }
  for (const part of [url.username, url.password]) {
    if (part.length === 0) continue;
    secrets.add(part);
    secrets.add(safeDecode(part));
  }
  for (const [, value] of url.searchParams) {
    if (value.length > 0) secrets.add(value);
  }
  if (url.search.length > 1) secrets.add(url.search.slice(1));
}

function readQuietly(target: object, key: string | symbol): unknown {
  try {
    return Reflect.get(target, key) as unknown;
  } catch {
    return undefined;
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
