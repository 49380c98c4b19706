/** What the CLI tells a user whose server needs a login. */
export function cliLoginHint(serverName: string, configFile?: string): string {
  const config = configFile === undefined ? "" : ` --config ${JSON.stringify(configFile)}`;
  return `run \`mcp-tool-adapter login ${serverName}${config}\``;
}
