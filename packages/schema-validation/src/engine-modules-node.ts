import { createRequire } from "node:module";
import type { Ajv } from "ajv";
import type { Ajv2019 } from "ajv/dist/2019.js";
import type { Ajv2020 } from "ajv/dist/2020.js";
import type * as ajvFormats from "ajv-formats";
import type { RE2JS } from "re2js";

// On Node ajv (every draft's build), ajv-formats and the RE2 engine are required on first use, not
// imported with the package: most tool schemas are draft-07 without a `pattern`, and loading the
// 2019-09 and 2020-12 builds up front cost about 0.8 MB of live heap and 20 ms of every host's start
// (issue 17). Most tool schemas are simple enough for the interpreter (interpret-simple-schema.ts),
// so a host whose tools are all simple never loads ajv at all: that took ajv and ajv-formats
// (about 45 ms of CPU on a loaded machine) off the import of the adapter (issue 36).
// Compiling is synchronous, so a dynamic import() cannot load them; both ship CommonJS builds.
const requireModule = createRequire(import.meta.url);

let ajv: typeof Ajv | undefined;
let formats: typeof ajvFormats.default | undefined;
let ajv2019: typeof Ajv2019 | undefined;
let ajv2020: typeof Ajv2020 | undefined;
let re2: typeof RE2JS | undefined;

export function loadAjv(): typeof Ajv {
  return (ajv ??= (requireModule("ajv") as { Ajv: typeof Ajv }).Ajv);
}

export function loadAjvFormats(): typeof ajvFormats.default {
  return (formats ??= (requireModule("ajv-formats") as typeof ajvFormats).default);
}

export function loadAjv2019(): typeof Ajv2019 {
  return (ajv2019 ??= (requireModule("ajv/dist/2019.js") as { Ajv2019: typeof Ajv2019 }).Ajv2019);
}

export function loadAjv2020(): typeof Ajv2020 {
  return (ajv2020 ??= (requireModule("ajv/dist/2020.js") as { Ajv2020: typeof Ajv2020 }).Ajv2020);
}

export function loadRe2(): typeof RE2JS {
  return (re2 ??= (requireModule("re2js") as { RE2JS: typeof RE2JS }).RE2JS);
}
