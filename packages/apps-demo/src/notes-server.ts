// The demo's own MCP server (stdio): a notes board with an app whose "Add" button calls a tool
// that writes, so the demo's approval is asked. The published example servers' app tools only read.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const BOARD_URI = "ui://notes/board.html";
const APP_MIME_TYPE = "text/html;profile=mcp-app";

const notes: string[] = [];
const noteList = () => ({
  content: [{ type: "text" as const, text: notes.length === 0 ? "no notes" : notes.join("\n") }],
  structuredContent: { notes: [...notes] },
});

const server = new McpServer({ name: "notes", version: "1.0.0" });
server.registerTool(
  "show-notes",
  {
    description: "Shows the notes board, where the user can add notes",
    annotations: { readOnlyHint: true },
    _meta: { ui: { resourceUri: BOARD_URI } },
  },
  noteList,
);
server.registerTool(
  "add-note",
  {
    description: "Adds a note to the board (called by the board's app)",
    inputSchema: { text: z.string().min(1).max(200) },
    annotations: { readOnlyHint: false, destructiveHint: false },
    _meta: { ui: { visibility: ["app"] } },
  },
  ({ text }) => {
    notes.push(text);
    return noteList();
  },
);
server.registerResource("notes board", BOARD_URI, { mimeType: APP_MIME_TYPE }, () => ({
  contents: [{ uri: BOARD_URI, mimeType: APP_MIME_TYPE, text: boardHtml() }],
}));
await server.connect(new StdioServerTransport());

/**
 * The board: a single HTML file, as apps are, running the extension's own `App` (its bundle with
 * dependencies, imported from a blob: URL, which the app CSP's script-src allows).
 */
function boardHtml(): string {
  const bundlePath = fileURLToPath(import.meta.resolve("@modelcontextprotocol/ext-apps/app-with-deps"));
  // As a JSON string in a script element: `<` escaped so the bundle's text cannot close the element.
  const bundle = JSON.stringify(readFileSync(bundlePath, "utf8")).replaceAll("<", "\\u003c");
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>Notes</title>
<style>body{font:14px system-ui,sans-serif;margin:12px}li{margin:2px 0}</style></head>
<body><h3>Notes</h3><ul id="notes"></ul>
<input id="note-text" placeholder="A note" /> <button id="add-note">Add</button>
<p id="status">starting</p>
<script type="module">
const bundle = ${bundle};
const { App, PostMessageTransport } = await import(URL.createObjectURL(new Blob([bundle], { type: "text/javascript" })));
const status = document.getElementById("status");
const render = (result) => {
  const list = document.getElementById("notes");
  list.replaceChildren(...(result.structuredContent?.notes ?? []).map((note) => {
    const item = document.createElement("li");
    item.textContent = note;
    return item;
  }));
};
const app = new App({ name: "notes-board", version: "1.0.0" }, {});
app.ontoolresult = (result) => { render(result); status.textContent = "ready"; };
await app.connect(new PostMessageTransport(window.parent, window.parent));
document.getElementById("add-note").addEventListener("click", async () => {
  const text = document.getElementById("note-text").value;
  status.textContent = "adding";
  try {
    const result = await app.callServerTool({ name: "add-note", arguments: { text } });
    if (result.isError) status.textContent = "not added: " + (result.content?.[0]?.text ?? "refused");
    else { render(result); status.textContent = "added"; }
  } catch (error) {
    status.textContent = "failed: " + error.message;
  }
});
</script></body></html>`;
}
