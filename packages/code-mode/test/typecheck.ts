import ts from "typescript";

/** Ambient names a program finds besides the API: console, as the sandbox defines it. */
const SANDBOX_GLOBALS =
  "declare const console: { log(...values: unknown[]): void; info(...values: unknown[]): void; warn(...values: unknown[]): void; error(...values: unknown[]): void; debug(...values: unknown[]): void };\ndeclare class ToolCallError extends Error { readonly tool: string; readonly errorKind: string }\n";

/** Type-checks declarations and a program against them with the TypeScript compiler API, in memory. */
export function typeCheck(declarations: string, program = "export {};"): string[] {
  const files = new Map([
    ["/api.d.ts", SANDBOX_GLOBALS + declarations],
    ["/program.ts", program],
  ]);
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ES2022,
    lib: ["lib.es2022.d.ts"],
    types: [],
    skipLibCheck: false,
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.fileExists = (name) => files.has(name) || ts.sys.fileExists(name);
  host.readFile = (name) => files.get(name) ?? readFile(name);
  host.getSourceFile = (name, language) => {
    const text = files.get(name);
    return text === undefined ? getSourceFile(name, language) : ts.createSourceFile(name, text, language);
  };
  const compiled = ts.createProgram([...files.keys()], options, host);
  return ts
    .getPreEmitDiagnostics(compiled)
    .map(
      (diagnostic) =>
        `${diagnostic.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`,
    );
}
