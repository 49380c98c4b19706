/** Where the generated schema module is. */
export declare const GENERATED_SCHEMA_PATH: string;
/** The generated module's text, formatted as the repository formats TypeScript. */
export declare function renderConfigFileSchemaModule(): Promise<string>;
