export {
  discoverInMemoryServer,
  registerEverythingServer,
  registerInMemoryServer,
  registerMemoryServer,
  type DiscoveredInMemoryServer,
  type RegisteredInMemoryServer,
  type RegisteredMemoryServer,
  type RegisteredServer,
} from "./registered-servers.js";
export { startOAuthServerWithTempRoot, type OAuthServerWithTempRoot } from "./oauth-server.js";
export { IMPORT_RECORDER_PATH } from "./import-recorder.js";
