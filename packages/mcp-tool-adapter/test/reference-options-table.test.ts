import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// The options table of docs/reference.md against the `MCPToolAdapterOptions` types, read with the
// TypeScript compiler from each package's public entry (not from the file that declares the type,
// which may move): every option is in the table, the table names no option that does not exist,
// and the rows marked "Umbrella only" are exactly the options the umbrella adds.

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const adapterEntry = `${repoRoot}packages/adapter/src/index.ts`;
const umbrellaEntry = `${repoRoot}packages/mcp-tool-adapter/src/index.ts`;
const referencePath = `${repoRoot}docs/reference.md`;

/** The property names (inherited ones too) of the type `typeName` that `entryFile` exports. */
function exportedTypePropertyNames(program: ts.Program, entryFile: string, typeName: string): string[] {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entryFile);
  if (source === undefined) throw new Error(`${entryFile} is not in the program`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  if (moduleSymbol === undefined) throw new Error(`${entryFile} is not a module`);
  const exported = checker.getExportsOfModule(moduleSymbol).find((symbol) => symbol.name === typeName);
  if (exported === undefined) throw new Error(`${entryFile} does not export ${typeName}`);
  const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  return checker
    .getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol))
    .map((property) => property.name)
    .sort();
}

interface OptionRow {
  names: string[];
  umbrellaOnly: boolean;
}

/** The rows of the table under "## Options": the backticked names of each first cell. */
function optionRows(markdown: string): OptionRow[] {
  const section = /^## Options\n([\s\S]*?)^## /m.exec(markdown)?.[1];
  if (section === undefined) throw new Error(`${referencePath} has no "## Options" section`);
  const rows = section.split("\n").filter((line) => line.startsWith("| `"));
  return rows.map((row) => {
    const [firstCell = "", , meaning = ""] = row.split(/(?<!\\)\|/).slice(1);
    return {
      names: [...firstCell.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? ""),
      umbrellaOnly: meaning.trim().startsWith("Umbrella only"),
    };
  });
}

describe("docs/reference.md options table", () => {
  const program = ts.createProgram([adapterEntry, umbrellaEntry], {
    ...ts.getDefaultCompilerOptions(),
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    customConditions: ["@mcp-tool-adapter/source"],
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: ["node"],
  });
  const adapterOptions = exportedTypePropertyNames(program, adapterEntry, "MCPToolAdapterOptions");
  const umbrellaOptions = exportedTypePropertyNames(program, umbrellaEntry, "MCPToolAdapterOptions");
  const rows = optionRows(readFileSync(referencePath, "utf8"));
  const documented = rows.flatMap((row) => row.names);

  it("reads the options from the types", () => {
    // Guards the reading itself: an empty or partial list would make the comparisons below hollow.
    expect(adapterOptions).toEqual(expect.arrayContaining(["transport", "connectTimeoutMs", "engine", "telemetry"]));
    expect(umbrellaOptions).toEqual(expect.arrayContaining([...adapterOptions, "transportOptions"]));
  });

  it("has one row per option of the umbrella's MCPToolAdapterOptions, and nothing else", () => {
    expect(new Set(documented).size, `an option appears twice in the table: ${documented.join(", ")}`).toBe(
      documented.length,
    );
    expect([...documented].sort()).toEqual(umbrellaOptions);
  });

  it('marks "Umbrella only" exactly the options the adapter package does not have', () => {
    const markedUmbrellaOnly = rows.filter((row) => row.umbrellaOnly).flatMap((row) => row.names);
    expect(markedUmbrellaOnly.sort()).toEqual(umbrellaOptions.filter((name) => !adapterOptions.includes(name)));
  });
});
