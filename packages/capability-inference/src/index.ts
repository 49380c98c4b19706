export { inferCapabilities } from "./infer-capabilities.js";
export { READ_KEYWORDS, WRITE_KEYWORDS } from "./keywords.js";
export { splitToolName } from "./split-tool-name.js";
export type {
  CapabilityDecisions,
  CapabilityOverrides,
  CapabilitySource,
  ToolAnnotationHints,
  ToolCapability,
} from "./types.js";
