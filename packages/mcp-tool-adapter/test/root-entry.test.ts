import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// The umbrella's main entry is what a user reads to learn the library: it stays short (at most
// MAX_ROOT_NAMES names, types included), and every name has one entry, so a name moved to a
// sub-entry cannot come back at the root unnoticed (issue 31).
const MAX_ROOT_NAMES = 80;

const packageDir = new URL("../", import.meta.url);
const SOURCE_CONDITION = "@mcp-tool-adapter/source";

interface Manifest {
  exports: Record<string, string | Record<string, string>>;
}

/** Each entry of package.json (".", "./http", ...) with the source file the workspace resolves it to. */
function entrySources(): Map<string, string> {
  const manifest = JSON.parse(readFileSync(new URL("package.json", packageDir), "utf8")) as Manifest;
  const sources = new Map<string, string>();
  for (const [entry, target] of Object.entries(manifest.exports)) {
    if (typeof target === "string") continue; // ./package.json
    const source = target[SOURCE_CONDITION];
    if (source === undefined) throw new Error(`package.json: the entry "${entry}" has no ${SOURCE_CONDITION} target`);
    sources.set(entry, fileURLToPath(new URL(source, packageDir)));
  }
  return sources;
}

interface EntryNames {
  /** Every name the entry exports, types and values, in source order. */
  names: string[];
  /** Statements that would make the list incomplete: an entry only re-exports by name. */
  problems: string[];
}

/** The names an entry file exports, read from its `export { ... } from` lists (types included). */
function exportedNames(file: string): EntryNames {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const names: string[] = [];
  const problems: string[] = [];
  for (const statement of source.statements) {
    const line = source.getLineAndCharacterOfPosition(statement.getStart()).line + 1;
    if (ts.isExportDeclaration(statement)) {
      if (statement.exportClause === undefined || ts.isNamespaceExport(statement.exportClause))
        problems.push(`line ${line}: \`export *\` hides which names the entry has; list them`);
      else for (const element of statement.exportClause.elements) names.push(element.name.text);
    } else if (
      ts.isExportAssignment(statement) ||
      (ts.canHaveModifiers(statement) &&
        ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword) === true)
    ) {
      problems.push(`line ${line}: an entry re-exports by name only; declare this in a module of its own`);
    }
  }
  return { names, problems };
}

/** An entry's run-time exports, loaded from its source as the workspace resolves it. */
async function loadEntry(file: string): Promise<Record<string, unknown>> {
  return (await import(file)) as Record<string, unknown>;
}

function duplicates(names: readonly string[]): string[] {
  return names.filter((name, index) => names.indexOf(name) !== index);
}

const sources = entrySources();
const rootSource = sources.get(".");
if (rootSource === undefined) throw new Error('package.json has no "." entry');
const subEntries = [...sources].filter(([entry]) => entry !== ".");
const root = exportedNames(rootSource);

describe("the umbrella's main entry", () => {
  it("re-exports by name only, so its names can be counted", () => {
    expect(root.problems).toEqual([]);
  });

  it(`exports at most ${MAX_ROOT_NAMES} names, types included, each once`, () => {
    expect(duplicates(root.names)).toEqual([]);
    expect(root.names.length).toBeLessThanOrEqual(MAX_ROOT_NAMES);
  });

  it("has at run time exactly the values its lists name", async () => {
    const runtime = Object.keys(await loadEntry(rootSource));
    expect(runtime.length).toBeGreaterThan(0);
    expect(runtime.filter((name) => !root.names.includes(name))).toEqual([]);
    expect(runtime.length).toBeLessThanOrEqual(MAX_ROOT_NAMES);
  });

  it("has sub-entries to check", () => {
    expect(subEntries.map(([entry]) => entry)).toEqual(
      expect.arrayContaining(["./http", "./model-tools", "./oauth", "./config-schema"]),
    );
  });

  for (const [entry, source] of subEntries) {
    describe(`and the sub-entry "mcp-tool-adapter/${entry.slice(2)}"`, () => {
      const sub = exportedNames(source);

      it("re-exports by name only, each name once", () => {
        expect(sub.problems).toEqual([]);
        expect(duplicates(sub.names)).toEqual([]);
      });

      it("share no name, types included", () => {
        expect(sub.names.filter((name) => root.names.includes(name))).toEqual([]);
      });

      it("share no name at run time", async () => {
        const [rootValues, subValues] = await Promise.all([loadEntry(rootSource), loadEntry(source)]);
        const runtime = Object.keys(subValues);
        expect(runtime.length).toBeGreaterThan(0);
        expect(runtime.filter((name) => Object.hasOwn(rootValues, name))).toEqual([]);
      });
    });
  }
});
