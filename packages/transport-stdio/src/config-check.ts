import { findStringRecordIssues, type ConfigIssue } from "@mcp-tool-adapter/core";
import type { StdioServerConfig } from "./config.js";
import { StdioTransportError } from "./errors.js";

/** The same type as `ConfigIssue` from `@mcp-tool-adapter/core`, under the name this package gave it first. */
export type StdioConfigIssue = ConfigIssue;

// These checks say in code what StdioServerConfigSchema says in TypeBox. They exist so that
// creating a transport (and the adapter's config check) never loads TypeBox, whose hundreds of
// modules cost more to import than the SDK client itself. A property test holds them to the
// schema: they accept exactly the values the schema accepts.

/**
 * Every problem of the stdio fields of `config` (command, args, env, cwd, inheritEnv), at once;
 * an empty list means valid. Other fields are not looked at. Never throws, whatever the input.
 */
export function findStdioConfigIssues(config: unknown): ConfigIssue[] {
  if (typeof config !== "object" || config === null || Array.isArray(config)) {
    return [{ path: "", message: "config must be an object" }];
  }
  const fields = config as Record<string, unknown>;
  const issues: ConfigIssue[] = [];
  const { command, args, env, cwd, inheritEnv } = fields;
  if (command === undefined) issues.push({ path: "/command", message: "command is required" });
  else checkNonEmptyString(command, "/command", issues);
  if (args !== undefined) checkStringList(args, "/args", issues);
  if (env !== undefined) findStringRecordIssues(env, "/env", issues);
  if (cwd !== undefined) checkNonEmptyString(cwd, "/cwd", issues);
  if (inheritEnv !== undefined && typeof inheritEnv !== "boolean" && !isStringList(inheritEnv)) {
    issues.push({
      path: "/inheritEnv",
      message: "inheritEnv must be true, false or a list of environment variable names",
    });
  }
  return issues;
}

/** Throws CONFIG_INVALID naming every bad field at once. */
export function assertStdioServerConfig(config: unknown): asserts config is StdioServerConfig {
  const issues = findStdioConfigIssues(config);
  if (issues.length === 0) return;
  throw new StdioTransportError(
    "CONFIG_INVALID",
    `Invalid stdio server config: ${issues.map((issue) => issue.message).join("; ")}. Give at least a non-empty "command" string.`,
  );
}

function checkNonEmptyString(value: unknown, path: string, issues: ConfigIssue[]): void {
  if (typeof value !== "string") issues.push({ path, message: `${fieldName(path)} must be a string` });
  else if (value === "") issues.push({ path, message: `${fieldName(path)} must not be empty` });
}

function checkStringList(value: unknown, path: string, issues: ConfigIssue[]): void {
  if (!Array.isArray(value)) {
    issues.push({ path, message: `${fieldName(path)} must be an array of strings` });
    return;
  }
  value.forEach((item: unknown, index) => {
    if (typeof item !== "string")
      issues.push({ path: `${path}/${index}`, message: `${fieldName(path)}.${index} must be a string` });
  });
}

function isStringList(value: unknown): boolean {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function fieldName(path: string): string {
  return path.slice(1);
}
