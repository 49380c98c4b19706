import { Ajv } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import * as ajvFormats from "ajv-formats";
import { RE2JS } from "re2js";

// Outside Node (bundlers, browsers) there is no synchronous loader, so these come with the package.
export function loadAjv(): typeof Ajv {
  return Ajv;
}

export function loadAjvFormats(): typeof ajvFormats.default {
  return ajvFormats.default;
}

export function loadAjv2019(): typeof Ajv2019 {
  return Ajv2019;
}

export function loadAjv2020(): typeof Ajv2020 {
  return Ajv2020;
}

export function loadRe2(): typeof RE2JS {
  return RE2JS;
}
