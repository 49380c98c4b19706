#!/usr/bin/env node
// The public surface of every public package, as API Extractor reports checked into the repo
// (packages/<dir>/etc/<name>.api.md). `--update` rewrites them; without it a difference fails,
// so a change to what users can import is a reviewed diff with a changeset, never an accident.
import { readdirSync, readFileSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { Extractor, ExtractorConfig } from "@microsoft/api-extractor";

const root = new URL("..", import.meta.url).pathname;
const update = process.argv.includes("--update");
const only = process.argv
  .find((arg) => arg.startsWith("--only="))
  ?.slice(7)
  .split(",");
let failures = 0;
/**
 * Packages whose report also shows the types their exports use but that their entry does not
 * export ("forgotten exports"): the umbrella's root names only what a user reaches for (issue 31),
 * and the types reached through those (an options field's type) must stay a reviewed diff.
 */
const REPORT_UNEXPORTED_TYPES = new Set(["mcp-tool-adapter"]);

for (const dir of readdirSync(join(root, "packages")).sort()) {
  const packageDir = join(root, "packages", dir);
  const manifestPath = join(packageDir, "package.json");
  if (!existsSync(manifestPath)) continue;
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
  if (manifest.private || (only && !only.includes(dir))) continue;
  const entry = join(packageDir, "dist/index.d.ts");
  if (!existsSync(entry)) {
    console.error(`api-report: ${manifest.name}: dist/index.d.ts is missing; run \`pnpm build\` first`);
    failures += 1;
    continue;
  }
  const reportFolder = join(packageDir, "etc");
  mkdirSync(reportFolder, { recursive: true });
  const config = ExtractorConfig.prepare({
    configObject: {
      projectFolder: packageDir,
      mainEntryPointFilePath: entry,
      compiler: {
        overrideTsconfig: {
          compilerOptions: {
            module: "NodeNext",
            moduleResolution: "NodeNext",
            skipLibCheck: true,
            lib: ["ES2023"],
            types: ["node"],
          },
          include: [entry],
        },
      },
      apiReport: {
        enabled: true,
        reportFolder,
        reportTempFolder: join(root, "reports/api-temp"),
        reportFileName: `${dir}.api.md`,
        includeForgottenExports: REPORT_UNEXPORTED_TYPES.has(dir),
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        extractorMessageReporting: { default: { logLevel: "none" } },
        tsdocMessageReporting: { default: { logLevel: "none" } },
        compilerMessageReporting: { default: { logLevel: "warning" } },
      },
    },
    configObjectFullPath: join(packageDir, "api-extractor.json"),
    packageJsonFullPath: manifestPath,
  });
  const result = Extractor.invoke(config, {
    localBuild: update,
    showVerboseMessages: false,
    messageCallback: (m) => {
      if (m.logLevel === "warning" || m.logLevel === "error") m.logLevel = "none";
    },
  });
  if (!result.succeeded || (!update && result.apiReportChanged)) {
    failures += 1;
    console.error(
      `api-report: ${manifest.name}: its public API differs from packages/${dir}/etc/${dir}.api.md. If the change is intended, run \`pnpm api:update\`, commit the report and add a changeset.`,
    );
  } else {
    console.log(`api-report: ${manifest.name}: ${update && result.apiReportChanged ? "report updated" : "unchanged"}`);
  }
}
process.exit(failures === 0 ? 0 : 1);
