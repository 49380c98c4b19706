import {
  newQuickJSWASMModuleFromVariant,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
} from "quickjs-emscripten-core";

/** The default variant: the release build of QuickJS with WebAssembly in a file beside its glue. */
export const RELEASE_VARIANT = "@jitl/quickjs-wasmfile-release-sync";

/**
 * A new QuickJS WebAssembly module (about 15 ms once warm) from a quickjs-emscripten sync variant
 * package: each run gets its own memory, so a run that breaks its module (an engine assertion
 * after running out of memory) cannot touch the next. Imported in the sandbox worker, never the host.
 */
export function loadQuickJS(variant: string | undefined): Promise<QuickJSWASMModule> {
  return newQuickJSWASMModuleFromVariant(
    variant === undefined || variant === RELEASE_VARIANT
      ? import("@jitl/quickjs-wasmfile-release-sync")
      : (import(variant) as Promise<{ default: QuickJSSyncVariant }>),
  );
}
