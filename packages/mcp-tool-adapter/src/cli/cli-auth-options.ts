import { createFileStore, defaultCredentialsDirectory, openInBrowser } from "@mcp-tool-adapter/oauth";
import type { ServerSetAuthOptions } from "../server-set/options.js";
import type { CliContext } from "./io.js";

/**
 * How the CLI's server set authorizes HTTP entries: logins in the user's credentials directory,
 * and (only where someone reads the terminal and can answer) a browser for `oauth` entries; an
 * unattended run fails with the login hint instead. Imported only for a config with an HTTP entry,
 * so a run against stdio servers never loads the OAuth code.
 */
export function cliAuthOptions(context: CliContext, loginHint: (server: string) => string): ServerSetAuthOptions {
  return {
    store: createFileStore({ directory: defaultCredentialsDirectory(context.env) }),
    loginHint,
    ...(context.isTTY && context.isStdinTTY()
      ? {
          interactive: {
            showAuthorizationUrl: (url: URL) =>
              context.showAuthorizationUrl
                ? context.showAuthorizationUrl(url)
                : openInBrowser(url, { write: (text) => context.stderr.write(text), isTTY: true, env: context.env }),
          },
        }
      : {}),
  };
}
