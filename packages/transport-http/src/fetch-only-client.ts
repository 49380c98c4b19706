import type { DirectClient, DirectClientOptions } from "./direct-client.js";

/**
 * Outside Node (a browser, a worker) there is no direct client: every request goes through the
 * global fetch, which already honours the platform's proxy settings. Selected by the "default"
 * condition of the `#http-client` import, so bundlers never see node:* modules or undici.
 */
export function createDirectClient(_options: DirectClientOptions): DirectClient | undefined {
  return undefined;
}
