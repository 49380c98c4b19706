import { appsStdioServer, everythingStdioServer } from "@mcp-tool-adapter/test-servers";
import { createStdioTransport } from "@mcp-tool-adapter/transport-stdio";
import type { Browser, Frame, Page } from "playwright-core";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { artifactsDirectory, launchChromium, startRecordingServer, type TestHttpServer } from "./fixtures/browser.js";
import { featuresServerTransport } from "./fixtures/features-app.js";
import { hostileServerTransport } from "./fixtures/hostile-app.js";
import { connectServers, startHost, type HostSetup } from "./fixtures/host.js";
import type { HostEvent, HostPage } from "./fixtures/host-page.js";
import type { AppHostContext, AppsCallResult } from "../src/index.js";

// MCP Apps in a real browser (Debian's Chromium through playwright-core): the published example
// servers basic-vanillajs, budget-allocator and system-monitor over stdio, a hostile app and an app
// using every host request from in-process servers, and server-everything (no apps) side by side
// in one registry, served by the package's own handlers.
let browser: Browser;
let servers: Awaited<ReturnType<typeof connectServers>>;
let setup: HostSetup;
let evil: TestHttpServer;
let allowed: TestHttpServer;
let page: Page;

const stdio = (launch: { command: string; args: string[] }) => () =>
  createStdioTransport({ command: launch.command, args: launch.args });

/** What beforeAll started, closed in reverse order by afterAll (also after a partial start). */
const cleanups: (() => Promise<void>)[] = [];
const openPages: Page[] = [];

beforeAll(async () => {
  evil = await startRecordingServer();
  cleanups.push(() => evil.close());
  allowed = await startRecordingServer();
  cleanups.push(() => allowed.close());
  const origins = { evil: evil.origin, allowed: allowed.origin };
  servers = await connectServers([
    { name: "basic", transport: stdio(appsStdioServer("basic-vanillajs")) },
    { name: "budget", transport: stdio(appsStdioServer("budget-allocator")) },
    { name: "monitor", transport: stdio(appsStdioServer("system-monitor")) },
    { name: "features", transport: featuresServerTransport },
    { name: "everything", transport: stdio(everythingStdioServer()) },
    { name: "hostile", transport: () => hostileServerTransport(origins) },
  ]);
  cleanups.push(() => servers.close());
  setup = await startHost(servers.source);
  cleanups.push(() => setup.close());
  browser = await launchChromium();
  cleanups.push(() => browser.close());
}, 120_000);

afterAll(async () => {
  for (const close of cleanups.reverse()) await close();
}, 60_000);

afterEach(async () => {
  await openPages.pop()?.close();
});

/** The host page's recorder and helpers (see fixtures/host-page.ts). */
interface HostGlobals {
  host: HostPage;
  localStorage: { getItem(key: string): string | null; setItem(key: string, value: string): void };
}

async function openHostPage(): Promise<Page> {
  page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
  openPages.push(page);
  await page.goto(`${setup.host.origin}/`);
  await page.waitForFunction(() => (globalThis as { host?: { ready?: boolean } }).host?.ready === true, undefined, {
    timeout: 30_000,
  });
  await page.evaluate(() => (globalThis as unknown as HostGlobals).localStorage.setItem("secret", "host-only"));
  return page;
}

function showApp(tool: string, hostContext?: AppHostContext): Promise<void> {
  const sandboxUrl = `${setup.sandbox.origin}/sandbox.html`;
  // The context as JSON: playwright's argument types recurse without end over its index signature.
  return page.evaluate(
    ([name, url, context]) =>
      (globalThis as unknown as HostGlobals).host.showApp(
        name,
        url,
        context === undefined ? undefined : (JSON.parse(context) as never),
      ),
    [tool, sandboxUrl, hostContext === undefined ? undefined : JSON.stringify(hostContext)] as const,
  );
}

/** Calls one of the app's own tools, as a model would through the host. */
function callAppTool(name: string, args: Record<string, unknown> = {}): Promise<AppsCallResult> {
  // The arguments as JSON, for the same reason.
  return page.evaluate(
    ([tool, json]) => (globalThis as unknown as HostGlobals).host.callAppTool(tool, JSON.parse(json) as never),
    [name, JSON.stringify(args)] as const,
  );
}

/** The app's own frame: the inner frame of the sandbox proxy. */
async function appFrame(): Promise<Frame> {
  await expect.poll(() => page.frames().length, { timeout: 30_000 }).toBe(3);
  const inner = page.frames().find((frame) => frame.parentFrame()?.url().startsWith(setup.sandbox.origin) === true);
  if (inner === undefined)
    throw new Error(
      `no app frame among ${page
        .frames()
        .map((frame) => frame.url())
        .join(", ")}`,
    );
  return inner;
}

const events = (): Promise<HostEvent[]> => page.evaluate(() => (globalThis as unknown as HostGlobals).host.events);

function eventOf<K extends HostEvent["kind"]>(all: HostEvent[], kind: K): Extract<HostEvent, { kind: K }> {
  const found = all.find((event): event is Extract<HostEvent, { kind: K }> => event.kind === kind);
  if (found === undefined) throw new Error(`the host recorded no ${kind}: ${JSON.stringify(all)}`);
  return found;
}

const timeOf = (result: { structuredContent?: unknown }) => (result.structuredContent as { time: string }).time;

describe("an MCP App in the browser", () => {
  it("renders the example server's app with the tool's result; a click calls the real server and updates the app", async () => {
    await openHostPage();
    await showApp("basic/get-time");
    const app = await appFrame();
    const first = timeOf(eventOf(await events(), "hostCall").result);
    const shown = app.locator("#server-time");
    await expect.poll(() => shown.textContent(), { timeout: 30_000 }).toBe(first);
    await page.screenshot({ path: join(artifactsDirectory(), "basic-vanillajs-app.png") });

    await app.locator("#get-time-btn").click();
    await expect
      .poll(async () => (await events()).filter((event) => event.kind === "callTool").length, { timeout: 30_000 })
      .toBe(1);
    const call = eventOf(await events(), "callTool");
    expect(call.name).toBe("get-time");
    expect(Date.parse(timeOf(call.result))).toBeGreaterThanOrEqual(Date.parse(first));
    await expect.poll(() => shown.textContent(), { timeout: 30_000 }).toBe(timeOf(call.result));

    await app.locator("#send-message-btn").click();
    await app.locator("#open-link-btn").click();
    await expect
      .poll(async () => (await events()).map((event) => event.kind), { timeout: 30_000 })
      .toEqual(expect.arrayContaining(["message", "openLink"]));
    expect(eventOf(await events(), "openLink")).toEqual({
      kind: "openLink",
      url: "https://modelcontextprotocol.io/",
    });

    await page.evaluate(() => (globalThis as unknown as HostGlobals).host.closeApp());
    expect(await page.locator("iframe").count()).toBe(0);
    expect(page.frames()).toHaveLength(1);
  });

  it("renders system-monitor's app with the server's info; Start polls an app-only tool on the real server and updates the app", async () => {
    await openHostPage();
    await showApp("monitor/get-system-info");
    const app = await appFrame();
    const info = eventOf(await events(), "hostCall").result.structuredContent as { hostname: string };
    await expect.poll(() => app.locator("#info-hostname").textContent(), { timeout: 30_000 }).toBe(info.hostname);
    await page.screenshot({ path: join(artifactsDirectory(), "system-monitor-app.png") });

    // The app starts polling on its own; the button stops it, and starts it again.
    const button = app.locator("#poll-toggle-btn");
    const polls = async () => (await events()).filter((event) => event.kind === "callTool");
    if ((await button.textContent()) === "Stop") await button.click();
    await expect.poll(() => button.textContent(), { timeout: 30_000 }).toBe("Start");
    const before = (await polls()).length;
    await button.click();
    await expect.poll(async () => (await polls()).length, { timeout: 30_000 }).toBeGreaterThan(before);
    const poll = (await polls()).at(-1);
    expect(poll?.name).toBe("poll-system-stats");
    expect(poll?.result.isError).not.toBe(true);
    expect(Object.keys(poll?.result.structuredContent ?? {})).toEqual(expect.arrayContaining(["memory", "cpu"]));
    await expect.poll(() => app.locator("#memory-percent").textContent(), { timeout: 30_000 }).toMatch(/^\d+%$/);
    await button.click();
    await page.screenshot({ path: join(artifactsDirectory(), "system-monitor-polled.png") });
  });

  it("renders budget-allocator's app with the server's data; the user's change shows in the app's own tools, which change the app", async () => {
    await openHostPage();
    await showApp("budget/get-budget-data");
    const app = await appFrame();
    const { config } = eventOf(await events(), "hostCall").result.structuredContent as {
      config: { categories: unknown[]; defaultBudget: number };
    };
    await expect
      .poll(() => app.locator("#sliders-container > *").count(), { timeout: 30_000 })
      .toBe(config.categories.length);
    expect(await app.locator("#budget-selector").inputValue()).toBe(String(config.defaultBudget));
    await page.screenshot({ path: join(artifactsDirectory(), "budget-allocator-app.png") });

    const tools = await page.evaluate(() => (globalThis as unknown as HostGlobals).host.listAppTools());
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["get-allocations", "set-total-budget"]));
    await app.locator("#budget-selector").selectOption("250000");
    const allocations = await callAppTool("get-allocations");
    expect(allocations.structuredContent).toMatchObject({ totalBudget: 250_000 });

    const set = await callAppTool("set-total-budget", { amount: 500_000 });
    expect(set.isError).not.toBe(true);
    expect(await app.locator("#budget-selector").inputValue()).toBe("500000");
    expect(await app.locator("#status-bar").textContent()).toContain("500,000");
    // The app made no call of its own to its server: only the host's.
    expect((await events()).filter((event) => event.kind === "callTool")).toEqual([]);
  });

  it("relays model-context updates, downloads and display-mode requests, and tells the app its host context", async () => {
    await openHostPage();
    await showApp("features/show", { theme: "light", availableDisplayModes: ["inline", "fullscreen"] });
    const app = await appFrame();
    const text = (id: string) => () => app.locator(`#${id}`).textContent();
    await expect.poll(text("theme"), { timeout: 30_000 }).toBe("light");
    expect(await text("mode")()).toBe("inline");
    expect((await text("capabilities")())?.split(",")).toEqual(
      expect.arrayContaining(["downloadFile", "message", "openLinks", "serverTools", "updateModelContext"]),
    );

    await app.locator("#update-context").click();
    await expect.poll(text("context-result"), { timeout: 30_000 }).toBe("updated");
    expect(eventOf(await events(), "modelContext").context).toEqual({
      content: [{ type: "text", text: "2 rows selected" }],
      structuredContent: { selected: [1, 2] },
    });

    await app.locator("#download").click();
    await expect.poll(text("download-result"), { timeout: 30_000 }).toBe("downloaded");
    expect(eventOf(await events(), "download").contents).toEqual([
      { type: "resource", resource: { uri: "file:///report.csv", mimeType: "text/csv", text: "a,b\n1,2\n" } },
      { type: "resource_link", uri: "https://example.com/full.csv", name: "full.csv", mimeType: "text/csv" },
    ]);

    await app.locator("#fullscreen").click();
    await expect.poll(text("mode-result"), { timeout: 30_000 }).toBe("fullscreen");
    await expect.poll(text("mode"), { timeout: 30_000 }).toBe("fullscreen");
    expect(await page.evaluate(() => (globalThis as unknown as HostGlobals).host.hostContext()?.displayMode)).toBe(
      "fullscreen",
    );
    await app.locator("#pip").click();
    await expect.poll(text("mode"), { timeout: 30_000 }).toBe("inline");
    expect(await text("mode-result")()).toBe("inline");
    expect((await events()).filter((event) => event.kind === "displayMode")).toEqual([
      { kind: "displayMode", requested: "fullscreen", granted: "fullscreen" },
      { kind: "displayMode", requested: "pip", granted: "inline" },
    ]);

    await page.evaluate(() => (globalThis as unknown as HostGlobals).host.setHostContext({ theme: "dark" }));
    await expect.poll(text("theme"), { timeout: 30_000 }).toBe("dark");
    expect(await text("changes")()).toBe("theme");
    await page.screenshot({ path: join(artifactsDirectory(), "features-app.png") });
  });

  it("keeps a hostile app from other origins, the host's DOM and storage, popups and the top window", async () => {
    await openHostPage();
    await showApp("hostile/attack");
    const app = await appFrame();
    await expect.poll(() => app.locator("#status").textContent(), { timeout: 30_000 }).toBe("done");
    const results = JSON.parse(
      await app.evaluate(
        () =>
          (globalThis as unknown as { document: { body: { dataset: { results?: string } } } }).document.body.dataset
            .results ?? "{}",
      ),
    ) as Record<string, string>;
    expect(results.fetchDeclaredOrigin).toBe("allowed: reached");
    for (const attack of [
      "fetchOtherOrigin",
      "imageOtherOrigin",
      "readParentDom",
      "readParentStorage",
      "readHostCookie",
      "openPopup",
      "navigateTop",
    ]) {
      expect(results[attack], attack).toMatch(/^blocked: /);
    }
    expect(page.url()).toBe(`${setup.host.origin}/`);
    expect(evil.requests).toEqual([]);
    expect(allowed.requests).toEqual(["/declared"]);
    expect(await page.evaluate(() => (globalThis as unknown as HostGlobals).localStorage.getItem("secret"))).toBe(
      "host-only",
    );
  });
});
