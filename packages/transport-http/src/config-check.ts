import { findStringRecordIssues, type ConfigIssue } from "@mcp-tool-adapter/core";

/** The same type as `ConfigIssue` from `@mcp-tool-adapter/core`, under the name this package gave it first. */
export type HttpConfigIssue = ConfigIssue;

// Says in code what the fields of HttpServerConfigSchema say in TypeBox, so that checking a
// server config never loads TypeBox (hundreds of modules). A property test holds it to the schema.

/**
 * Every problem of the HTTP fields of `config` (url, headers), at once; an empty list means
 * valid. Other fields are not looked at (the transport's own schema also refuses them; configs
 * that embed these fields, like the adapter's, allow them). Never throws, whatever the input.
 */
export function findHttpConfigIssues(config: unknown): ConfigIssue[] {
  if (typeof config !== "object" || config === null || Array.isArray(config)) {
    return [{ path: "", message: "config must be an object" }];
  }
  const { url, headers } = config as Record<string, unknown>;
  const issues: ConfigIssue[] = [];
  if (url === undefined) issues.push({ path: "/url", message: "url is required" });
  else if (typeof url !== "string") issues.push({ path: "/url", message: "url must be a string" });
  else if (url === "") issues.push({ path: "/url", message: "url must not be empty" });
  if (headers !== undefined) findStringRecordIssues(headers, "/headers", issues);
  return issues;
}
