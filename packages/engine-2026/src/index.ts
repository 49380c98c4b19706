export {
  createEngine2026,
  Engine2026,
  MODERN_REVISION,
  type Engine2026Options,
  type Engine2026TransportFactory,
} from "./engine.js";
export { createEngine2026Transport, type Engine2026TransportOptions } from "./transports.js";
export { Engine2026Error, type Engine2026ErrorCode } from "./errors.js";
