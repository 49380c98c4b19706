import { fileURLToPath } from "node:url";

/**
 * A module to preload with `node --import <this path>`: it records the URL of every module the
 * process resolves and adds `globalThis.resolvedModuleUrls()`, which returns them. The umbrella's
 * import-graph tests and the consumer check (scripts/check-consumers.mjs) use it to prove what
 * importing a package leaves unloaded.
 */
export const IMPORT_RECORDER_PATH = fileURLToPath(new URL("./record-imports.mjs", import.meta.url));
