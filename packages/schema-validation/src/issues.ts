import type { ErrorObject } from "ajv";
import { describeError } from "./describe-error.js";
import type { ValidationIssue } from "./types.js";

/** How many issues `formatValidationErrors` spells out before summarizing the rest. */
export const DEFAULT_MAX_FORMATTED_ERRORS = 20;

export function toValidationIssues(errors: readonly ErrorObject[] | null | undefined): ValidationIssue[] {
  if (errors === null || errors === undefined || errors.length === 0) {
    return [{ path: "", keyword: "schema", message: "does not match the schema" }];
  }
  return errors.map(toValidationIssue);
}

/** The one issue of a value the validator could not walk (a cycle, a depth past the stack, a throwing getter). */
export function uncheckable(error: unknown): ValidationIssue {
  return {
    path: "",
    keyword: "value",
    message: `could not be validated (${describeError(error)}); pass plain JSON data, not circular or extremely deep structures`,
  };
}

function toValidationIssue(error: ErrorObject): ValidationIssue {
  return { path: error.instancePath, keyword: error.keyword, message: describe(error) };
}

function describe(error: ErrorObject): string {
  const message = error.message ?? `must pass "${error.keyword}"`;
  // ajv does not say which property is extra; the reader needs its name to fix the call.
  const params = error.params as { additionalProperty?: unknown; unevaluatedProperty?: unknown };
  const extra = params.additionalProperty ?? params.unevaluatedProperty;
  return typeof extra === "string" ? `${message}: '${extra}'` : message;
}

export interface FormatValidationErrorsOptions {
  /** Issues spelled out before the rest are counted as "and N more". Default 20. */
  maxErrors?: number;
}

/**
 * One line naming each problem's path and rule, in the order they were found:
 * `must have required property 'body'; /title must be string`.
 */
export function formatValidationErrors(
  errors: readonly ValidationIssue[],
  options: FormatValidationErrorsOptions = {},
): string {
  const limit = options.maxErrors;
  const maxErrors = limit !== undefined && limit >= 1 ? Math.floor(limit) : DEFAULT_MAX_FORMATTED_ERRORS;
  const shown = errors
    .slice(0, maxErrors)
    .map((issue) => (issue.path === "" ? issue.message : `${issue.path} ${issue.message}`));
  const hidden = errors.length - shown.length;
  if (hidden > 0) shown.push(`and ${hidden} more`);
  return shown.join("; ");
}
