// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "**/dist/**",
      "**/node_modules/**",
      "**/coverage/**",
      "reports/**",
      "**/.doc-examples/**",
      "**/.bench/**",
      "**/*.mjs",
      "**/vitest.config.ts",
      "vitest.shared.ts",
      // Browser code with its own tsconfig (the DOM lib), checked by the demo's typecheck script.
      "packages/apps-demo/web/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      // One TypeScript program for the whole repository (the root tsconfig.json, which `pnpm typecheck`
      // checks too): with a program per package, every package re-read the SDK's, zod's and the
      // frameworks' types and re-checked the sibling sources its tests import, for 3x the CPU and 5 GB.
      parserOptions: { project: ["./tsconfig.json"], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "no-restricted-exports": [
        "error",
        {
          restrictDefaultExports: {
            direct: true,
            named: true,
            defaultFrom: true,
            namedFrom: true,
            namespaceFrom: true,
          },
        },
      ],
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [
                "@mcp-tool-adapter/*/*",
                "!@mcp-tool-adapter/core/protocol",
                "!@mcp-tool-adapter/core/value-rules",
                "!@mcp-tool-adapter/transport-*/config",
                "!@mcp-tool-adapter/adapter/config",
                "!@mcp-tool-adapter/*/config-schema",
                "!@mcp-tool-adapter/apps/server",
                "mcp-tool-adapter/*",
                "!mcp-tool-adapter/http",
                "!mcp-tool-adapter/model-tools",
                "!mcp-tool-adapter/oauth",
                "!mcp-tool-adapter/cache",
              ],
              message:
                "Import a package by its public entry (or core's /protocol and /value-rules, a transport's config-check /config entry, a /config-schema entry, apps' /server entry, or the umbrella's /http, /model-tools, /oauth, /cache entries) only.",
            },
            { group: ["../../*/src/*", "../../../packages/*"], message: "No deep imports across packages." },
          ],
        },
      ],
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true, allowBoolean: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      // `import { type A } from "x"` keeps `import "x"` under verbatimModuleSyntax: a module loaded for nothing.
      "@typescript-eslint/no-import-type-side-effects": "error",
      "@typescript-eslint/no-confusing-void-expression": "off",
    },
  },
  {
    files: [
      "packages/*/test/**/*.ts",
      "packages/integration/**/*.ts",
      "packages/bench/**/*.ts",
      "packages/test-servers/**/*.ts",
      "packages/conformance/**/*.ts",
      "packages/test-helpers/**/*.ts",
    ],
    rules: {
      "@typescript-eslint/no-non-null-assertion": "off",
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/unbound-method": "off",
    },
  },
  {
    // The adapter's layers hand a step a record (the call record, a context), not a parameter list.
    files: ["packages/adapter/src/**/*.ts"],
    rules: { "@typescript-eslint/max-params": ["error", { max: 4 }] },
  },
);
