// `pnpm generate:config-schema`: rewrites src/config-file/entry-options-schema.generated.ts from
// the TypeBox schemas (see config-file-schema-module.mjs).
import { writeFileSync } from "node:fs";
import { GENERATED_SCHEMA_PATH, renderConfigFileSchemaModule } from "./config-file-schema-module.mjs";

writeFileSync(GENERATED_SCHEMA_PATH, await renderConfigFileSchemaModule());
process.stdout.write(`wrote ${GENERATED_SCHEMA_PATH}\n`);
