// The import rules `pnpm lint` holds packages/*/src to (run alone: `pnpm lint:imports`):
// - no import cycle, `import type` included: a cycle closed by types still ties the files together;
// - a type file stays a leaf. A type file is one named `types.ts` or `<anything>-types.ts`: it
//   imports with `import type` / `export type` only, and of its own package only modules without
//   run-time code (other type files, or any module that declares types only).
import { readdirSync, readFileSync } from "node:fs";
import ts from "typescript";

const TYPE_FILE = "(^|/)types\\.ts$|-types\\.ts$";

/** Whether a module has run-time code: its JavaScript, once the types are erased, is more than `export {};`. */
function hasRuntimeCode(path) {
  const { outputText } = ts.transpileModule(readFileSync(path, "utf8"), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
    fileName: path,
  });
  return (
    outputText
      .replace(/\/\/.*|\/\*[\s\S]*?\*\//g, "")
      .replace(/export \{\};/g, "")
      .trim() !== ""
  );
}

/** The src modules that declare types only, as one anchored pattern. */
function typeOnlyModules() {
  const paths = [];
  for (const pkg of readdirSync("packages")) {
    let files;
    try {
      files = readdirSync(`packages/${pkg}/src`, { recursive: true });
    } catch {
      continue;
    }
    for (const file of files) {
      const path = `packages/${pkg}/src/${file}`;
      if (path.endsWith(".ts") && !path.endsWith(".d.ts") && !hasRuntimeCode(path)) paths.push(path);
    }
  }
  return `^(${paths.map((path) => path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})$`;
}

/** @type {import("dependency-cruiser").IConfiguration} */
export default {
  forbidden: [
    {
      name: "no-import-cycle",
      comment: "The files of a package's src import each other one way: break the cycle (move what both need down).",
      severity: "error",
      from: { path: "^packages/[^/]+/src/" },
      to: { circular: true },
    },
    {
      name: "type-file-imports-runtime-module",
      comment: "A type file imports only modules without run-time code: move the type it needs into a type file.",
      severity: "error",
      from: { path: TYPE_FILE },
      to: { dependencyTypes: ["local"], pathNot: typeOnlyModules() },
    },
    {
      name: "type-file-value-import",
      comment: "A type file declares types only: import with `import type` / `export type`.",
      severity: "error",
      from: { path: TYPE_FILE },
      to: { dependencyTypesNot: ["type-only"] },
    },
  ],
  options: {
    includeOnly: "^packages/[^/]+/src/",
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    skipAnalysisNotInRules: true,
  },
};
