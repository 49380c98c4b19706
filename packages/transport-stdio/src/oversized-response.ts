import { MESSAGE_TOO_LARGE, MESSAGE_TOO_LARGE_ERROR_CODE } from "@mcp-tool-adapter/core";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { OversizedLine } from "./line-reader.js";

const ID = String.raw`(-?\d+|"[^"\\]{0,200}")`;
// `{"jsonrpc":"2.0","id":7,"result":...` (most SDKs outside TypeScript)
const ID_FIRST = new RegExp(
  String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}\s*,\s*"(?:result|error)"\s*:`,
);
// `{"result":...,"jsonrpc":"2.0","id":7}` (the TypeScript SDK): a response by its first key, id as its last.
const RESPONSE_START = /^\s*\{\s*"(?:result|error)"\s*:/;
const ID_LAST = new RegExp(String.raw`"id"\s*:\s*${ID}\s*\}\s*$`);

/**
 * A dropped line is usually a huge tool result. When its JSON-RPC id can be read from its first
 * or last bytes, answer the waiting request with an error now instead of leaving it to time out.
 * Best effort: undefined when the line does not look like a response.
 */
export function oversizedResponseError(line: OversizedLine, maxMessageBytes: number): JSONRPCMessage | undefined {
  const rawId =
    ID_FIRST.exec(line.head)?.[1] ?? (RESPONSE_START.test(line.head) ? ID_LAST.exec(line.tail)?.[1] : undefined);
  if (rawId === undefined) return undefined;
  const id = JSON.parse(rawId) as string | number;
  return {
    jsonrpc: "2.0",
    id,
    error: {
      code: MESSAGE_TOO_LARGE_ERROR_CODE,
      message: `The server's response (${line.bytes} bytes) exceeded maxMessageBytes (${maxMessageBytes} bytes) and was dropped`,
      data: { reason: MESSAGE_TOO_LARGE, bytes: line.bytes, maxMessageBytes },
    },
  };
}
