// One description of a thrown value for every package: it lives in @mcp-tool-adapter/core.
export { describeCause as describeError } from "@mcp-tool-adapter/core";
