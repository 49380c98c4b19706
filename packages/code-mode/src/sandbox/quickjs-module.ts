import { newQuickJSWASMModuleFromVariant, type QuickJSWASMModule } from "quickjs-emscripten-core";

/**
 * A new QuickJS WebAssembly module (about 15 ms once warm): each run gets its own memory, so a run
 * that breaks its module (an engine assertion after running out of memory) cannot touch the next.
 * The release build is imported at the first run, not when the package loads.
 */
export function freshQuickJS(): Promise<QuickJSWASMModule> {
  return newQuickJSWASMModuleFromVariant(import("@jitl/quickjs-wasmfile-release-sync"));
}
