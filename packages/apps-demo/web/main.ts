// The demo page: lists the server set's tools, calls one, shows its app; every tool call the app
// makes goes through the apps channel and the adapter (a tool that writes asks first).
import { createAppFrame, createAppsClient, type AppFrame, type AppsToolInfo } from "@mcp-tool-adapter/apps";

const client = createAppsClient({ baseUrl: "/api/apps" });
const { sandboxUrl } = (await (await fetch("/demo-config.json")).json()) as { sandboxUrl: string };
const element = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const select = element<HTMLSelectElement>("tool");
const log = (line: string) => {
  element("log").textContent += `${new Date().toLocaleTimeString()}  ${line}\n`;
  element("log").scrollTop = 1e9;
};

const allTools = await client.listTools();
// Every tool, app-only ones too: an app's call to a tool that writes is looked up here for the approval.
const byName = new Map(allTools.map((tool) => [tool.name, tool]));
// The ones offered to pick: what a model would see (app-only tools are for their app alone).
const tools = allTools.filter((tool) => tool.ui?.visibility.includes("model") ?? true);
for (const tool of tools) {
  const option = document.createElement("option");
  option.value = tool.name;
  option.textContent = `${tool.ui?.resourceUri === undefined ? "  " : "▣ "}${tool.name}${tool.writes ? " (writes)" : ""}`;
  select.append(option);
}
const firstApp = tools.find((tool) => tool.ui?.resourceUri !== undefined);
if (firstApp !== undefined) select.value = firstApp.name;
const describe = () => (element("description").textContent = byName.get(select.value)?.description ?? "");
select.addEventListener("change", describe);
describe();

let frame: AppFrame | undefined;

/** Asks the user, in the page's own dialog, before a call to a tool that writes; one question at a time. */
let asking = Promise.resolve(true);
function approved(tool: AppsToolInfo | undefined, name: string, args: unknown): Promise<boolean> {
  if (tool?.writes !== true || element<HTMLInputElement>("auto-approve").checked) return Promise.resolve(true);
  asking = asking.then(() => ask(`${name} may change something. Run it with ${JSON.stringify(args)}?`));
  return asking;
}

function ask(question: string): Promise<boolean> {
  const dialog = element<HTMLDialogElement>("approval");
  element("approval-question").textContent = question;
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) =>
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "allow"), { once: true }),
  );
}

async function callTool(name: string, args: Record<string, unknown>, app?: string) {
  if (!(await approved(byName.get(name), name, args))) {
    log(`✗ ${name}: refused by you`);
    return { content: [{ type: "text", text: "The user refused this call." }], isError: true };
  }
  const result = await client.callTool({ name, arguments: args, ...(app === undefined ? {} : { app }) });
  log(
    `${result.isError === true ? "✗" : "✓"} ${app === undefined ? "host" : "app"} → ${name} ${JSON.stringify(args)}: ${JSON.stringify(result.structuredContent ?? result.content).slice(0, 200)}`,
  );
  return result;
}

element("call").addEventListener("click", () => {
  void (async () => {
    const tool = byName.get(select.value);
    if (tool === undefined) return;
    let args: Record<string, unknown>;
    try {
      args = JSON.parse(element<HTMLTextAreaElement>("arguments").value) as Record<string, unknown>;
    } catch {
      log("✗ the arguments are not JSON");
      return;
    }
    await frame?.close();
    frame = undefined;
    try {
      if (tool.ui?.resourceUri !== undefined) {
        frame = await createAppFrame({
          container: element("app"),
          sandboxUrl,
          resource: await client.readUi(tool.name),
          host: {
            callTool: (name, appArgs) => callTool(`${tool.server}/${name}`, appArgs, tool.name),
            sendMessage: (message) => log(`✉ app → model: ${JSON.stringify(message.content)}`),
            openLink: (url) => {
              log(`↗ app opens ${url}`);
              window.open(url, "_blank", "noopener");
            },
            onLog: (entry) => log(`· app log (${entry.level}): ${JSON.stringify(entry.data)}`),
          },
        });
        await frame.sendToolInput(args);
      }
      const result = await callTool(tool.name, args);
      await frame?.sendToolResult(result);
    } catch (error) {
      log(`✗ ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
    }
  })();
});

element("close").addEventListener("click", () => {
  void frame?.close().then(() => log("app closed"));
  frame = undefined;
});
log(
  `${tools.length} tools from ${new Set(tools.map((tool) => tool.server)).size} servers; the sandbox is ${new URL(sandboxUrl).origin}`,
);
