import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
} from "quickjs-emscripten-core";
import { WasmHeap } from "./heap-cap.js";

/** The default variant: the release build of QuickJS with WebAssembly in a file beside its glue. */
export const RELEASE_VARIANT = "@jitl/quickjs-wasmfile-release-sync";

/** A QuickJS module and the memory it runs in. */
export interface SandboxModule {
  readonly quickjs: QuickJSWASMModule;
  readonly heap: WasmHeap;
}

/**
 * A new QuickJS WebAssembly module (about 15 ms once warm) from a quickjs-emscripten sync variant
 * package, in a memory of its own whose growth the run caps (see heap-cap.ts): a run that breaks
 * its module (an engine assertion after running out of memory) cannot touch the next. Imported in
 * the sandbox worker, never the host.
 */
export async function loadQuickJS(variant: string | undefined): Promise<SandboxModule> {
  const base = await (variant === undefined || variant === RELEASE_VARIANT
    ? import("@jitl/quickjs-wasmfile-release-sync")
    : (import(variant) as Promise<{ default: QuickJSSyncVariant }>));
  const heap = new WasmHeap();
  // `as never`: the option is typed WebAssembly.Memory, a type this repository's ES2023 lib lacks.
  const quickjs = await newQuickJSWASMModuleFromVariant(newVariant(base.default, { wasmMemory: heap.memory as never }));
  return { quickjs, heap };
}
