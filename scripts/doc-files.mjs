// The Markdown a user reads (the root README, docs/, each package's README) and its fenced code
// blocks: what the docs checks look at.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

export const repoRoot = new URL("..", import.meta.url).pathname;

/** Every Markdown file of the docs: the root README, docs/**, packages/<name>/README.md. */
export function docFiles() {
  const files = [join(repoRoot, "README.md")];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".md")) files.push(path);
    }
  };
  walk(join(repoRoot, "docs"));
  for (const pkg of readdirSync(join(repoRoot, "packages"))) {
    const readme = join(repoRoot, "packages", pkg, "README.md");
    if (existsSync(readme)) files.push(readme);
  }
  return files;
}

/**
 * The fenced code blocks of a Markdown file: `language` (the fence's first word, "" when bare),
 * `info` (the rest of the fence line), `code`, and `line` (the fence's line number, from 1).
 */
export function codeBlocks(file) {
  const text = readFileSync(file, "utf8");
  const fence = /^```([^\s`]*)([^\n]*)\n([\s\S]*?)^```/gm;
  return [...text.matchAll(fence)].map((match) => ({
    language: match[1],
    info: match[2],
    code: match[3],
    line: text.slice(0, match.index).split("\n").length,
  }));
}
