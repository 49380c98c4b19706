import { discardBody } from "./body-reader.js";
import type { FetchLike } from "./guarded-fetch.js";

const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Sends with `redirect: "manual"` and follows up to five redirects that stay on the endpoint's
 * origin (or move it from http to https on default ports): a token must not travel to another
 * host. 301/302/303 would turn a POST into a GET, so only 307/308 are followed for other methods.
 * A redirect not followed is returned as it is; `unfollowedRedirect` words it.
 */
export async function fetchWithinOrigin(fetch: FetchLike, url: URL, init: RequestInit): Promise<Response> {
  const manual: RequestInit = { ...init, redirect: "manual" };
  let from = url;
  let response = await fetch(url, manual);
  for (let followed = 0; followed < MAX_REDIRECTS; followed++) {
    const target = redirectTarget(response, from);
    const keepsMethod = response.status === 307 || response.status === 308 || (init.method ?? "GET") === "GET";
    if (target === undefined || !keepsMethod || !isSameOrigin(from, target)) return response;
    await discardBody(response);
    from = target;
    response = await fetch(target, manual);
  }
  return response;
}

/** Why a redirect response was not followed, or undefined when the response is no redirect. */
export function unfollowedRedirect(response: Response, requestUrl: URL): string | undefined {
  if (response.type === "opaqueredirect")
    return "Redirect not followed: this runtime does not expose the redirect target";
  const target = redirectTarget(response, requestUrl);
  if (target === undefined) return undefined;
  target.username = target.password = target.search = target.hash = "";
  if (target.protocol === "http:" && requestUrl.protocol === "https:") {
    target.protocol = "https:";
    return `Redirect to plain http not followed; try ${target.href} instead`;
  }
  return `Redirect to ${target.href} not followed`;
}

function redirectTarget(response: Response, from: URL): URL | undefined {
  if (!REDIRECT_STATUSES.has(response.status)) return undefined;
  const location = response.headers.get("location");
  if (location === null || !URL.canParse(location, from.href)) return undefined;
  return new URL(location, from);
}

function isSameOrigin(from: URL, to: URL): boolean {
  if (to.username !== from.username || to.password !== from.password) return false;
  if (from.hostname !== to.hostname) return false;
  if (from.protocol === to.protocol && from.port === to.port) return true;
  return from.protocol === "http:" && from.port === "" && to.protocol === "https:" && to.port === "";
}
