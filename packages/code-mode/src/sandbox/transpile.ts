import { transform } from "sucrase";

export type TranspileOutcome =
  { readonly ok: true; readonly code: string } | { readonly ok: false; readonly message: string };

/**
 * The model's code, TypeScript-flavoured or plain, as the body of an async function: top-level
 * `await` and `return` work, and types are stripped. Sucrase strips types without type-checking
 * (pure JavaScript, synchronous, a fraction of TypeScript's size and start-up).
 */
export function transpileProgram(source: string): TranspileOutcome {
  const wrapped = `(async () => {\n${source}\n})()`;
  try {
    const { code } = transform(wrapped, { transforms: ["typescript"], disableESTransforms: true });
    return { ok: true, code };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // Sucrase counts lines of the wrapped program; the model's line 1 is the wrapper's line 2.
    return {
      ok: false,
      message: message.replace(
        /\((\d+):(\d+)\)/,
        (_, line: string, column: string) => `(line ${Number(line) - 1}, column ${column})`,
      ),
    };
  }
}
