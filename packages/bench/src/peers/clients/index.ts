import type { LoadPeerClient } from "../peer-client.js";
import type { PeerSide } from "../sides.js";
import { loadAdapterClient, loadDiscoveredAdapterClient, loadSdkV1AdapterClient } from "./adapter.js";
import { loadAISDKClient } from "./ai-sdk.js";
import { loadLangChainClient } from "./langchain.js";
import { loadMastraClient } from "./mastra.js";
import { loadOpenAIAgentsClient } from "./openai-agents.js";
import { loadRawClient } from "./raw.js";

/** Each side's loader; a loader imports its library only when called. */
export const PEER_LOADERS: Readonly<Record<PeerSide, LoadPeerClient>> = {
  raw: loadRawClient,
  adapter: loadAdapterClient,
  "adapter-discovered": loadDiscoveredAdapterClient,
  "adapter-sdk-v1": loadSdkV1AdapterClient,
  langchain: loadLangChainClient,
  "openai-agents": loadOpenAIAgentsClient,
  mastra: loadMastraClient,
  "ai-sdk": loadAISDKClient,
};
