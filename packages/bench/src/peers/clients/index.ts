import type { EngineSide } from "../engine-sides.js";
import type { LoadPeerClient } from "../peer-client.js";
import type { PeerSide } from "../sides.js";
import { loadDefaultEngineClient, loadEngine2026Client, loadEngine2026LegacyClient } from "./adapter-engine.js";
import { loadAdapterClient, loadDiscoveredAdapterClient, loadSdkV1AdapterClient } from "./adapter.js";
import { loadAISDKClient } from "./ai-sdk.js";
import { loadFloorClient } from "./floor.js";
import { loadLangChainClient } from "./langchain.js";
import { loadMastraClient } from "./mastra.js";
import { loadOpenAIAgentsClient } from "./openai-agents.js";
import { loadRawClient } from "./raw.js";
import { loadRawV2Client, loadRawV2LegacyClient, loadRawV2PeerClient } from "./raw-v2.js";

/** Each side's loader; a loader imports its library only when called. */
export const PEER_LOADERS: Readonly<Record<PeerSide, LoadPeerClient>> = {
  raw: loadRawClient,
  "raw-sdk-v2": loadRawV2PeerClient,
  floor: loadFloorClient,
  adapter: loadAdapterClient,
  "adapter-discovered": loadDiscoveredAdapterClient,
  "adapter-sdk-v1": loadSdkV1AdapterClient,
  langchain: loadLangChainClient,
  "openai-agents": loadOpenAIAgentsClient,
  mastra: loadMastraClient,
  "ai-sdk": loadAISDKClient,
};

/** The engine comparison's loaders (issue 21). */
export const ENGINE_LOADERS: Readonly<Record<EngineSide, LoadPeerClient>> = {
  "raw-v2": loadRawV2Client,
  "engine-2026": loadEngine2026Client,
  "default-engine": loadDefaultEngineClient,
  "raw-v2-2025": loadRawV2LegacyClient,
  "engine-2026-2025": loadEngine2026LegacyClient,
};
