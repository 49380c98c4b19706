import type * as ServerAuth from "./server-auth.js";
import type { ServerEntry } from "./server-entry.js";

type ServerAuthModule = typeof ServerAuth;

let loaded: ServerAuthModule | undefined;
let loading: Promise<ServerAuthModule> | undefined;

/**
 * Every HTTP entry may use a login (its own `auth`, or a stored one), so the OAuth code is
 * imported before such an entry's adapter is built; a set of stdio servers never loads it.
 */
export function needsServerAuth(entry: ServerEntry): boolean {
  return entry.transport !== "stdio";
}

export async function loadServerAuth(): Promise<ServerAuthModule> {
  loading ??= import("./server-auth.js").then((module) => (loaded = module));
  return loading;
}

/** The module `loadServerAuth` imported; the set awaits that before it calls the adapter factory. */
export function loadedServerAuth(): ServerAuthModule {
  if (loaded === undefined)
    throw new Error("server-auth: loadServerAuth() must finish before an HTTP adapter is built");
  return loaded;
}
