import type { SimpleSchema, SimpleType } from "./simple-schema.js";
import { uncheckable } from "./issues.js";
import type { CompiledSchema, ValidationIssue } from "./types.js";

/*
 * Validates against a SimpleSchema with the verdicts, paths, messages and order ajv's generated
 * code produces under the package's options (allErrors, strict off). ajv runs keywords in groups:
 * type-independent ones (enum) first, then number, string, array and object keywords, each group
 * only when the value has that group's type. A single declared type whose group the schema uses
 * is reported inside that group; otherwise the type error comes before everything else.
 */

type Group = "number" | "string" | "array" | "object";

const GROUP_KEYWORDS: Readonly<Record<Group, readonly (keyof SimpleSchema)[]>> = {
  number: ["maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum"],
  string: ["maxLength", "minLength"],
  array: ["maxItems", "minItems", "items"],
  object: ["required", "additionalProperties", "properties"],
};

const GROUPS: readonly Group[] = ["number", "string", "array", "object"];

/** Checks one value at `path`, appending what is wrong to `issues`. */
type Check = (value: unknown, path: string, issues: ValidationIssue[]) => void;

/**
 * Turns the schema into a tree of small checks once, so validating does no schema inspection.
 * The validator it returns is the whole per-call path: no wrapper around it in another module.
 */
export function compileSimpleSchema(schema: SimpleSchema): CompiledSchema {
  const check = planNode(schema);
  return {
    validate(value) {
      const issues: ValidationIssue[] = [];
      try {
        check(value, "", issues);
      } catch (error) {
        return { valid: false, errors: [uncheckable(error)] };
      }
      return { valid: issues.length === 0, errors: issues };
    },
  };
}

function planNode(schema: SimpleSchema): Check {
  const { type } = schema;
  const checks: Check[] = [];
  const typeInGroup =
    type !== undefined && type !== "integer" && type !== "boolean" && type !== "null" && usesGroup(schema, type);
  if (type !== undefined && !typeInGroup) checks.push(planType(type));
  if (schema.enum !== undefined) {
    const allowed: readonly unknown[] = schema.enum;
    checks.push((value, path, issues) => {
      if (!allowed.includes(value))
        issues.push({ path, keyword: "enum", message: "must be equal to one of the allowed values" });
    });
  }
  for (const group of GROUPS) {
    if (!usesGroup(schema, group)) continue;
    const reportsType = typeInGroup && type === group;
    if (group === "object") {
      checks.push(planObject(schema, reportsType));
      continue;
    }
    const keywordChecks = planGroup(group, schema);
    checks.push((value, path, issues) => {
      if (hasType(group, value)) keywordChecks(value, path, issues);
      else if (reportsType) issues.push(typeIssue(path, group));
    });
  }
  return sequence(checks);
}

/**
 * The check of a type outside its keyword group. The usual types of a property (string, number,
 * boolean) are tested in place: a call of hasType per property checked is a frame of its own on
 * every call of a tool, interpreted until V8 compiles the validator.
 */
function planType(type: SimpleType): Check {
  if (type === "string" || type === "number" || type === "boolean") {
    return (value, path, issues) => {
      if (typeof value !== type) issues.push(typeIssue(path, type));
    };
  }
  return (value, path, issues) => {
    if (!hasType(type, value)) issues.push(typeIssue(path, type));
  };
}

function sequence(checks: readonly Check[]): Check {
  if (checks.length === 1) return checks[0] as Check;
  // Indexed loops here and in the object checks: a for-of allocates an iterator on every check
  // until the optimising compiler removes it, and a tool's first few hundred calls run before that.
  return (value, path, issues) => {
    for (let index = 0; index < checks.length; index += 1) (checks[index] as Check)(value, path, issues);
  };
}

function usesGroup(schema: SimpleSchema, group: Group): boolean {
  return GROUP_KEYWORDS[group].some((keyword) => schema[keyword] !== undefined);
}

/** ajv's type tests with strictNumbers off: NaN and Infinity are numbers, Infinity even an integer. */
function hasType(type: SimpleType, value: unknown): boolean {
  switch (type) {
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "integer":
      return typeof value === "number" && !(value % 1) && !Number.isNaN(value);
    default:
      return typeof value === type;
  }
}

function typeIssue(path: string, type: SimpleType): ValidationIssue {
  return { path, keyword: "type", message: `must be ${type}` };
}

function planGroup(group: Exclude<Group, "object">, schema: SimpleSchema): Check {
  switch (group) {
    case "number":
      return sequence(planNumber(schema));
    case "string":
      return planString(schema);
    case "array":
      return sequence(planArray(schema));
  }
}

function planNumber(schema: SimpleSchema): Check[] {
  // Every comparison also fails for NaN, as ajv's generated code does.
  const checks: Check[] = [];
  const { maximum, minimum, exclusiveMaximum, exclusiveMinimum } = schema;
  if (maximum !== undefined) {
    checks.push((value, path, issues) => {
      if (!((value as number) <= maximum)) issues.push({ path, keyword: "maximum", message: `must be <= ${maximum}` });
    });
  }
  if (minimum !== undefined) {
    checks.push((value, path, issues) => {
      if (!((value as number) >= minimum)) issues.push({ path, keyword: "minimum", message: `must be >= ${minimum}` });
    });
  }
  if (exclusiveMaximum !== undefined) {
    checks.push((value, path, issues) => {
      if (!((value as number) < exclusiveMaximum))
        issues.push({ path, keyword: "exclusiveMaximum", message: `must be < ${exclusiveMaximum}` });
    });
  }
  if (exclusiveMinimum !== undefined) {
    checks.push((value, path, issues) => {
      if (!((value as number) > exclusiveMinimum))
        issues.push({ path, keyword: "exclusiveMinimum", message: `must be > ${exclusiveMinimum}` });
    });
  }
  return checks;
}

function planString(schema: SimpleSchema): Check {
  const maxLength = schema.maxLength ?? Number.POSITIVE_INFINITY;
  const minLength = schema.minLength ?? 0;
  return (value, path, issues) => {
    const length = codePointLength(value as string);
    if (length > maxLength)
      issues.push({ path, keyword: "maxLength", message: `must NOT have more than ${maxLength} characters` });
    if (length < minLength)
      issues.push({ path, keyword: "minLength", message: `must NOT have fewer than ${minLength} characters` });
  };
}

/** Length in code points (a surrogate pair counts once, a lone surrogate once), as ajv counts. */
function codePointLength(text: string): number {
  let length = text.length;
  for (let index = 0; index < text.length - 1; index += 1) {
    const unit = text.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) {
      length -= 1;
      index += 1;
    }
  }
  return length;
}

function planArray(schema: SimpleSchema): Check[] {
  const checks: Check[] = [];
  const { maxItems, minItems, items } = schema;
  if (maxItems !== undefined) {
    checks.push((value, path, issues) => {
      if ((value as unknown[]).length > maxItems)
        issues.push({ path, keyword: "maxItems", message: `must NOT have more than ${maxItems} items` });
    });
  }
  if (minItems !== undefined) {
    checks.push((value, path, issues) => {
      if ((value as unknown[]).length < minItems)
        issues.push({ path, keyword: "minItems", message: `must NOT have fewer than ${minItems} items` });
    });
  }
  if (items !== undefined) {
    const checkItem = planNode(items);
    checks.push((value, path, issues) => {
      const array = value as unknown[];
      for (let index = 0; index < array.length; index += 1) checkItem(array[index], `${path}/${index}`, issues);
    });
  }
  return checks;
}

/**
 * The object group as one check: the type test and every object keyword (required, then
 * additionalProperties, then properties, ajv's order) in one function. Every tool's arguments go
 * through it on every call; as a closure per keyword behind a sequence and a type test, that was
 * four calls before the first property was looked at.
 */
function planObject(schema: SimpleSchema, reportsType: boolean): Check {
  const { properties, additionalProperties } = schema;
  const required = schema.required ?? [];
  const known =
    additionalProperties === false ? new Set(properties === undefined ? [] : Object.keys(properties)) : undefined;
  const planned: readonly PlannedProperty[] =
    properties === undefined
      ? []
      : Object.entries(properties).map(([name, propertySchema]) => ({
          name,
          segment: `/${escapePointer(name)}`,
          check: planNode(propertySchema),
        }));
  return (value, path, issues) => {
    // hasType's test for "object", in place (see planType).
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      if (reportsType) issues.push(typeIssue(path, "object"));
      return;
    }
    const object = value as Readonly<Record<string, unknown>>;
    // Presence is `value[name] !== undefined`, inherited members included, exactly as ajv tests it.
    for (let index = 0; index < required.length; index += 1) {
      const name = required[index] as string;
      if (object[name] === undefined)
        issues.push({ path, keyword: "required", message: `must have required property '${name}'` });
    }
    if (known !== undefined) {
      for (const name in object) {
        if (!known.has(name))
          issues.push({
            path,
            keyword: "additionalProperties",
            message: `must NOT have additional properties: '${name}'`,
          });
      }
    }
    for (let index = 0; index < planned.length; index += 1) {
      const { name, segment, check } = planned[index] as PlannedProperty;
      const propertyValue = object[name];
      if (propertyValue !== undefined) check(propertyValue, path + segment, issues);
    }
  };
}

/** A declared property: its name, its JSON Pointer segment and its check. */
interface PlannedProperty {
  readonly name: string;
  readonly segment: string;
  readonly check: Check;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}
