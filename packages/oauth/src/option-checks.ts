import { isSecureEndpoint } from "./checks.js";
import { MCPAuthError } from "./errors.js";
import type { NodeOAuthProviderOptions } from "./provider-options.js";

/**
 * Fails with AUTH_CONFIG_INVALID on options that cannot work or would send a secret somewhere the
 * user did not name, before the provider exists: a configuration mistake shows at start-up, not at
 * the first 401.
 */
export function checkProviderOptions(serverUrl: string, options: NodeOAuthProviderOptions): void {
  const crossApp = options.crossAppAccess;
  if (crossApp !== undefined) {
    if (options.authorizationServer === undefined || options.clientCredentials !== undefined) {
      invalid(
        `crossAppAccess for ${serverUrl} needs authorizationServer (the issuer URL the secret may be sent to) and no clientCredentials.`,
      );
    }
    if (!isSecureEndpoint(crossApp.idpTokenEndpoint)) {
      invalid(`crossAppAccess idpTokenEndpoint ${crossApp.idpTokenEndpoint} must be an https URL.`);
    }
  }
  const machine = options.clientCredentials;
  if (machine !== undefined) {
    if (options.authorizationServer === undefined) {
      invalid(
        `clientCredentials for ${serverUrl} need authorizationServer (the issuer URL the secret may be sent to).`,
      );
    }
    if ((machine.clientSecret === undefined) === (machine.privateKey === undefined)) {
      invalid("clientCredentials need exactly one of clientSecret or privateKey.");
    }
    if (machine.privateKey !== undefined && machine.algorithm === undefined) {
      invalid('clientCredentials with privateKey need algorithm (e.g. "RS256").');
    }
  }
  if (options.authorizationServer !== undefined && !isSecureEndpoint(options.authorizationServer)) {
    invalid(`authorizationServer ${options.authorizationServer} must be an https URL.`);
  }
  if (options.clientMetadataUrl !== undefined && !/^https:\/\/[^/]+\/./.test(options.clientMetadataUrl)) {
    invalid(
      `clientMetadataUrl ${options.clientMetadataUrl} must be an https URL with a path (a client ID metadata document).`,
    );
  }
}

function invalid(message: string): never {
  throw new MCPAuthError("AUTH_CONFIG_INVALID", message);
}
