const REDACTED = "[REDACTED]";

/** Header names whose values are secret however short they are. */
const SENSITIVE_HEADER = /auth|token|key|secret|cookie|session|password|credential/i;
/** Below this length a non-sensitive header value is too common a string to redact safely. */
const MIN_PLAIN_SECRET_LENGTH = 4;

/**
 * Replaces every occurrence of each secret in `text` (also in its URL-encoded form) with
 * `[REDACTED]`. Longer secrets are replaced first so one secret inside another leaves no tail.
 */
export function redactSecrets(text: string, secrets: Iterable<string>): string {
  const variants = new Set<string>();
  for (const secret of secrets) {
    if (secret.length === 0) continue;
    variants.add(secret);
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret) variants.add(encoded);
  }
  let result = text;
  for (const secret of [...variants].sort((a, b) => b.length - a.length)) {
    result = result.split(secret).join(REDACTED);
  }
  return result;
}

/** Whether a header's value is a credential (Authorization, Cookie, API keys, tokens...). */
export function isSensitiveHeader(name: string): boolean {
  return SENSITIVE_HEADER.test(name);
}

/** Adds the secret parts of one header value: the value, a credential after its scheme, cookie values. */
export function addHeaderSecrets(secrets: Set<string>, name: string, value: string): void {
  const trimmed = value.trim();
  const sensitive = isSensitiveHeader(name);
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

/** Adds a URL's userinfo and query parameter values, raw and decoded. */
export function addUrlSecrets(secrets: Set<string>, url: URL): void {
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

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Every secret of an HTTP server config that must never appear in a message: credential header
 * values (and the bare token after their scheme, cookie values), other header values long enough
 * to be safe to redact, and the URL's userinfo and query values. An unparsable URL adds nothing.
 */
export function collectConfigSecrets(config: {
  url: string;
  headers?: Record<string, string> | undefined;
}): Set<string> {
  const secrets = new Set<string>();
  for (const [name, value] of Object.entries(config.headers ?? {})) addHeaderSecrets(secrets, name, value);
  let url: URL;
  try {
    url = new URL(config.url);
  } catch {
    return secrets;
  }
  addUrlSecrets(secrets, url);
  return secrets;
}
