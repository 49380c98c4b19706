import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";
import { wasmApi, type WasmMemory } from "./wasm-api.js";

// Why the heap is capped here and not by QuickJS alone: QuickJS counts each allocation as
// `malloc_usable_size(ptr) + 8`, and under Emscripten `malloc_usable_size` is unavailable (0), so
// `setMemoryLimit` sees 8 bytes per block whatever its size. It still refuses one allocation larger
// than the limit (`s = s + s`), but a program keeping many large strings (`keep.push("y".repeat(1e6))`)
// grew past any limit until the CPU limit ended it. The WebAssembly memory is the real heap: the
// sandbox's memory refuses to grow past the limit, and malloc then fails inside QuickJS as
// "out of memory", which the run reports as `memory_limit`.

const PAGE_BYTES = 64 * 1024;
/**
 * The memory the quickjs-emscripten builds import: at least 256 pages (16 MiB, their
 * INITIAL_MEMORY), at most 32768 (2 GiB, the glue's own maximum).
 */
const ENGINE_INITIAL_PAGES = 256;
const ENGINE_MAXIMUM_PAGES = 32_768;
/** Heap left free beside the ballast for the engine's own small allocations, counted against the limit. */
const BALLAST_MARGIN_BYTES = 64 * 1024;

/**
 * One QuickJS module's WebAssembly memory, free to grow while the engine starts (a sanitizer build
 * needs about 50 MiB for itself) and held to a ceiling once the program's runtime exists. The
 * Emscripten glue grows memory by calling `grow` on this object (its sbrk reaches JavaScript), so
 * the ceiling is checked there; past it, growth fails as it would at the memory's maximum.
 */
export class WasmHeap {
  readonly memory: WasmMemory;
  #ceilingBytes = Number.POSITIVE_INFINITY;
  #refused = false;

  constructor() {
    const memory = new wasmApi.Memory({ initial: ENGINE_INITIAL_PAGES, maximum: ENGINE_MAXIMUM_PAGES });
    const grow = memory.grow.bind(memory);
    memory.grow = (deltaPages: number): number => {
      if (memory.buffer.byteLength + deltaPages * PAGE_BYTES > this.#ceilingBytes) {
        this.#refused = true;
        throw new RangeError("code-mode: the sandbox's memory limit is reached");
      }
      return grow(deltaPages);
    };
    this.memory = memory;
  }

  /** Whether the memory refused to grow past the limit (the program ran out of memory at least once). */
  get exhausted(): boolean {
    return this.#refused;
  }

  /**
   * Holds what a program may allocate from now on to `memoryBytes`: fills the heap already free in
   * the memory (about 11 MiB of the first 16 MiB after a runtime and a context) with one buffer the
   * program cannot reach, and lets the memory grow by `memoryBytes` at most. Returns the buffer's
   * handle (dispose it before the context), or undefined when nothing was free.
   */
  limitTo(context: QuickJSContext, memoryBytes: number): QuickJSHandle | undefined {
    const ballast = reserveFreeHeap(context, this.memory.buffer.byteLength - heapTop(context));
    this.#ceilingBytes = this.memory.buffer.byteLength + Math.ceil(memoryBytes / PAGE_BYTES) * PAGE_BYTES;
    return ballast;
  }
}

function reserveFreeHeap(context: QuickJSContext, freeBytes: number): QuickJSHandle | undefined {
  const size = freeBytes - BALLAST_MARGIN_BYTES;
  if (size <= 0) return undefined;
  const ballast = context.evalCode(`new ArrayBuffer(${size})`, "ballast.js");
  if (ballast.error === undefined) return ballast.value;
  ballast.error.dispose();
  return undefined;
}

/**
 * Where the allocator's next block lands, read from a fresh small block's address (quickjs-emscripten
 * copies an ArrayBuffer out with malloc; the copy's offset in the memory is that address).
 */
function heapTop(context: QuickJSContext): number {
  const probe = context.evalCode("new ArrayBuffer(16)", "probe.js");
  if (probe.error !== undefined) {
    probe.error.dispose();
    return Number.POSITIVE_INFINITY;
  }
  try {
    const copy = context.getArrayBuffer(probe.value);
    const top = copy.value.byteOffset + copy.value.byteLength;
    copy.dispose();
    return top;
  } finally {
    probe.value.dispose();
  }
}
