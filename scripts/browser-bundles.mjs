// The consumer check's browser step: each public package that claims to run in a browser is
// bundled with esbuild as a web app would bundle it, then loaded in a real browser (the system's
// Chromium, driven by playwright-core; Playwright's own browser download is not reachable from
// CI) where it must import and pass a small use of its API with no page error. One browser for
// all bundles; each bundle gets a fresh page.
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

/**
 * What each package's bundle does once imported: a small, real use of its API that throws when
 * it does not work. A package without an entry here must only import (with exports). Runs in the
 * page, so each is self-contained apart from `api` (the package) and `registry`
 * (@mcp-tool-adapter/registry, for the bridges' tool source).
 */
export const BROWSER_USES = {
  "@mcp-tool-adapter/transport-http": async (api) => {
    // User info in the URL becomes a Basic Authorization header (issue 32: that used Node's Buffer).
    const url = "https://user:p%C3%A4ss%E2%82%AC@mcp.example.invalid/mcp";
    for (const create of [api.createStreamableHttpTransport, api.createSseTransport]) {
      const transport = create({ url });
      if (typeof transport.start !== "function") throw new Error(`${create.name} returned no Transport`);
    }
    return "streamable-http and SSE transports built from a URL with user info";
  },
  "@mcp-tool-adapter/schema-validation": async (api) => {
    const validator = api.createSchemaValidator();
    const schema = { type: "object", properties: { n: { type: "number" } }, required: ["n"] };
    const good = validator.validate(schema, { n: 1 });
    const bad = validator.validate(schema, { n: "one" });
    if (!good.valid || bad.valid || bad.errors.length === 0)
      throw new Error(`validation answered ${JSON.stringify({ good, bad })}`);
    return `validated; rejected with: ${api.formatValidationErrors(bad.errors)}`;
  },
  "@mcp-tool-adapter/capability-inference": async (api) => {
    const read = api.inferCapabilities("read_file");
    const write = api.inferCapabilities("delete_file");
    if (!read.readOnly || write.readOnly) throw new Error(`inferred ${JSON.stringify({ read, write })}`);
    return "read_file is read-only, delete_file is not";
  },
  "@mcp-tool-adapter/core": async (api) => {
    const described = api.describeCause(new Error("disk full"));
    if (!described.includes("disk full")) throw new Error(`describeCause gave ${JSON.stringify(described)}`);
    return described;
  },
  "@mcp-tool-adapter/registry": async (api) => {
    const registry = new api.ToolRegistry();
    const tool = registry.register("demo", {
      name: "add",
      description: "Adds two numbers",
      inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
      capabilities: { readOnly: true, writes: false },
      checkpointable: false,
      source: "local",
      sourceMetadata: {},
      handler: (args) => ({ success: true, data: args.a + args.b }),
    });
    const result = await registry.call(tool.name, { a: 2, b: 3 });
    if (!result.success || result.data !== 5) throw new Error(`call answered ${JSON.stringify(result)}`);
    return `${tool.name}(2, 3) = ${result.data}`;
  },
  "@mcp-tool-adapter/model-tools": async (api) => {
    const names = api.createModelToolNames(["files.read_file"]);
    const modelName = names.toModelName("files.read_file");
    if (!api.MODEL_TOOL_NAME_PATTERN.test(modelName) || names.toRegistryName(modelName) !== "files.read_file")
      throw new Error(`model name ${JSON.stringify(modelName)} does not map back`);
    return `files.read_file is ${modelName} for a model`;
  },
  "@mcp-tool-adapter/tool-search": async (api, registry) => {
    const tools = new registry.ToolRegistry();
    tools.register("weather", {
      name: "get_forecast",
      description: "Five-day forecast for a city",
      inputSchema: { type: "object", properties: {} },
      capabilities: { readOnly: true, writes: false },
      checkpointable: true,
      source: "local",
      sourceMetadata: {},
      handler: () => ({ success: true, data: "sunny" }),
    });
    const [hit] = api.createToolIndex(tools).search("forecast");
    if (hit?.name !== "weather/get_forecast") throw new Error(`search found ${JSON.stringify(hit)}`);
    return `"forecast" finds ${hit.name}`;
  },
  "@mcp-tool-adapter/adapter": async (api) => {
    const issues = api.findConfigIssues({ transport: "streamable-http" });
    if (issues.length === 0) throw new Error("a config without a url passed the check");
    return `config check: ${issues.map((issue) => issue.message).join("; ")}`;
  },
  "@mcp-tool-adapter/ai-sdk": async (api, registry) => {
    const tools = api.createAISDKTools(new registry.ToolRegistry());
    if (typeof tools !== "object" || tools === null) throw new Error("createAISDKTools returned no tool set");
    return "AI SDK tools from an empty registry";
  },
  "@mcp-tool-adapter/langchain": async (api, registry) => {
    const tools = api.createLangChainTools(new registry.ToolRegistry());
    if (!Array.isArray(tools)) throw new Error("createLangChainTools returned no list");
    return "LangChain tools from an empty registry";
  },
  "@mcp-tool-adapter/apps": async (api) => {
    const policy = api.buildAppCsp({ connectDomains: ["https://api.example.com"] });
    if (!policy.includes("connect-src https://api.example.com") || typeof api.createAppFrame !== "function")
      throw new Error(`app CSP ${JSON.stringify(policy)}`);
    const client = api.createAppsClient({ baseUrl: "/api/apps" });
    if (typeof client.callTool !== "function") throw new Error("createAppsClient returned no client");
    return `an app's CSP: ${policy.split("; ").find((directive) => directive.startsWith("connect-src"))}`;
  },
  "@mcp-tool-adapter/openai-agents": async (api, registry) => {
    const tools = api.createOpenAIAgentsTools(new registry.ToolRegistry());
    if (!Array.isArray(tools)) throw new Error("createOpenAIAgentsTools returned no list");
    return "OpenAI Agents tools from an empty registry";
  },
};

/** The module a web app would have: imports the package, runs its use, leaves the outcome on globalThis. */
export function browserEntry(packageName) {
  const use = BROWSER_USES[packageName];
  return [
    `import * as api from ${JSON.stringify(packageName)};`,
    // Only the bridges get the registry: in any other bundle its code would blur whose failure it is.
    use !== undefined && use.length >= 2
      ? `import * as registry from "@mcp-tool-adapter/registry";`
      : "const registry = undefined;",
    `const use = ${use === undefined ? "async () => 'imported'" : use.toString()};`,
    "try {",
    '  if (Object.keys(api).length === 0) throw new Error("the package has no exports");',
    "  globalThis.__consumerCheck = { ok: true, detail: String(await use(api, registry)) };",
    "} catch (error) {",
    "  globalThis.__consumerCheck = { ok: false, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };",
    "}",
  ].join("\n");
}

/** The system's Chromium: $CHROMIUM_PATH, or the first of the usual names on PATH. */
export function findChromium() {
  const given = process.env.CHROMIUM_PATH;
  if (given !== undefined && given !== "") return given;
  for (const name of ["chromium", "chromium-browser", "google-chrome-stable", "google-chrome"]) {
    for (const directory of (process.env.PATH ?? "").split(delimiter)) {
      if (directory === "") continue;
      const file = join(directory, name);
      try {
        accessSync(file, constants.X_OK);
        return file;
      } catch {
        // Not here.
      }
    }
  }
  return undefined;
}

// A page served from an https origin (answered by the route below, never the network), so the
// bundle runs in a secure context as on a real site (Web Crypto's subtle API needs one).
const ORIGIN = "https://consumer.invalid";
/** A hang bound per bundle, not a speed target (the browser shares two cores with the tests in CI). */
const PAGE_TIMEOUT_MS = 120_000;

/**
 * Loads each bundle in its own page of one Chromium and reports per bundle: undefined when it
 * imported, its use passed and the page raised no error; otherwise what went wrong.
 * `bundles`: `{ key, code }[]`. Resolves with a Map from key to problem (or undefined), or throws
 * when the browser itself cannot start.
 */
export async function runBundlesInBrowser(bundles, { executablePath }) {
  const { chromium } = await import("playwright-core");
  // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
  const browser = await chromium.launch({ executablePath, args: ["--no-sandbox"], timeout: PAGE_TIMEOUT_MS });
  const outcomes = new Map();
  try {
    for (const bundle of bundles) outcomes.set(bundle.key, await runOne(browser, bundle.code));
  } finally {
    await browser.close();
  }
  return outcomes;
}

async function runOne(browser, code) {
  const page = await browser.newPage();
  const problems = [];
  page.on("pageerror", (error) => problems.push(`page error: ${error.name}: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  });
  await page.route(`${ORIGIN}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === "/bundle.js") return route.fulfill({ contentType: "text/javascript", body: code });
    if (path === "/") {
      const html = '<!doctype html><meta charset="utf-8"><script type="module" src="/bundle.js"></script>';
      return route.fulfill({ contentType: "text/html", body: html });
    }
    return route.fulfill({ status: 404, body: "" });
  });
  try {
    await page.goto(`${ORIGIN}/`, { timeout: PAGE_TIMEOUT_MS });
    // Done when the entry left its outcome, or a page error stopped it before it could.
    const deadline = Date.now() + PAGE_TIMEOUT_MS;
    let outcome;
    while (Date.now() < deadline) {
      outcome = await page.evaluate(() => globalThis.__consumerCheck);
      if (outcome !== undefined || problems.some((problem) => problem.startsWith("page error"))) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (outcome === undefined && problems.length === 0)
      problems.push(`the bundle did not finish within ${PAGE_TIMEOUT_MS} ms`);
    if (outcome?.ok === false) problems.unshift(`its use failed: ${outcome.error}`);
    return problems.length === 0 ? undefined : problems.join("\n");
  } finally {
    await page.close();
  }
}
