/** The transport names config files use: ours, VS Code's ("http") and the camelCase some tools write. */
export const CONFIG_FILE_TRANSPORTS = ["stdio", "sse", "streamable-http", "http", "streamableHttp"] as const;

export type ConfigFileTransport = (typeof CONFIG_FILE_TRANSPORTS)[number];
