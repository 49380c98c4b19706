/**
 * This package's version: the default `clientInfo.version` the adapter sends in `initialize`.
 * `pnpm version-packages` (scripts/release-plan.mjs) writes it together with package.json, and a
 * test holds the two equal, so a server never sees a version that was not released.
 */
export const ADAPTER_VERSION = "0.1.0";
