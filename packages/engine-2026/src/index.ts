export { createEngine2026, Engine2026, MODERN_REVISION, type Engine2026Options } from "./engine.js";
export { Engine2026Error, type Engine2026ErrorCode } from "./errors.js";
