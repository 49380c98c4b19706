import { MCPConfigError } from "../errors.js";
import type { MCPRoot } from "./types.js";

/** The roots, checked and frozen; MCPConfigError naming every bad entry. */
export function checkRoots(roots: unknown, where: string): readonly MCPRoot[] {
  if (!Array.isArray(roots)) {
    throw new MCPConfigError(`${where} must be a list of roots ({ uri: "file:///...", name? }).`, [
      { path: "/roots", message: "must be an array" },
    ]);
  }
  const issues: { path: string; message: string }[] = [];
  const checked = roots.map((root: unknown, index) => {
    const uri = (root as { uri?: unknown } | null)?.uri;
    const name = (root as { name?: unknown } | null)?.name;
    if (typeof uri !== "string" || !uri.startsWith("file://"))
      issues.push({ path: `/roots/${index}/uri`, message: 'must be a "file://" URI' });
    if (name !== undefined && typeof name !== "string")
      issues.push({ path: `/roots/${index}/name`, message: "must be a string" });
    return Object.freeze({ uri: String(uri), ...(typeof name === "string" ? { name } : {}) });
  });
  if (issues.length > 0) {
    throw new MCPConfigError(
      `${where} has invalid roots: ${issues.map((issue) => `${issue.path} ${issue.message}`).join("; ")}.`,
      issues,
    );
  }
  return Object.freeze(checked);
}
