import { readFile } from "node:fs/promises";
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
} from "quickjs-emscripten-core";
import { WasmHeap } from "./heap-cap.js";
import { wasmApi, type WasmModule } from "./wasm-api.js";

/** The default variant: the release build of QuickJS with WebAssembly in a file beside its glue. */
export const RELEASE_VARIANT = "@jitl/quickjs-wasmfile-release-sync";

/** A QuickJS module and the memory it runs in. */
export interface SandboxModule {
  readonly quickjs: QuickJSWASMModule;
  readonly heap: WasmHeap;
}

/** The release build's WebAssembly, compiled once per worker thread and instantiated per run. */
let releaseModule: Promise<WasmModule | undefined> | undefined;

/**
 * A new QuickJS WebAssembly module from a quickjs-emscripten sync variant package, in a memory of
 * its own whose growth the run caps (see heap-cap.ts): a run that breaks its module (an engine
 * assertion after running out of memory) cannot touch the next. The release build's compiled
 * WebAssembly is kept for the worker's next runs, so a warm run only instantiates it (other
 * variants compile per run: a debug build given a compiled module waits for its source map). Imported in the sandbox
 * worker, never the host.
 */
export async function loadQuickJS(variant: string | undefined): Promise<SandboxModule> {
  const name = variant ?? RELEASE_VARIANT;
  const base = await (name === RELEASE_VARIANT
    ? import("@jitl/quickjs-wasmfile-release-sync")
    : (import(name) as Promise<{ default: QuickJSSyncVariant }>));
  const module = name === RELEASE_VARIANT ? await compiledRelease() : undefined;
  const heap = new WasmHeap();
  // `as never`: the options are typed with WebAssembly's types, which this repository's lib lacks.
  const quickjs = await newQuickJSWASMModuleFromVariant(
    newVariant(base.default, {
      wasmMemory: heap.memory as never,
      ...(module === undefined ? {} : { wasmModule: module }),
    }),
  );
  return { quickjs, heap };
}

function compiledRelease(): Promise<WasmModule | undefined> {
  releaseModule ??= compileRelease();
  return releaseModule;
}

/** The release build's `.wasm` (its `/wasm` export), compiled; undefined when that fails (it then compiles per run). */
async function compileRelease(): Promise<WasmModule | undefined> {
  try {
    return await wasmApi.compile(await readFile(new URL(import.meta.resolve(`${RELEASE_VARIANT}/wasm`))));
  } catch {
    return undefined;
  }
}
