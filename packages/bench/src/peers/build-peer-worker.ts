import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";

/** Where the bundles go: inside the bench package, so bare imports resolve to its node_modules. */
const OUT_DIR = fileURLToPath(new URL("../../.bench/", import.meta.url));

export interface PeerBundles {
  /** The peer worker (src/peers/peer-worker.ts) as one plain-JavaScript file. */
  readonly worker: string;
  /** The generated-tools server (src/servers/generated-tools-server.ts), likewise. */
  readonly generatedServer: string;
  /** The light stdio server of the many-servers scenario (src/servers/light-tools-server.ts), likewise. */
  readonly lightServer: string;
}

/**
 * Bundles the peer worker and the bench's servers into plain JavaScript with every package left
 * external. The worker then runs on bare `node`: no TypeScript loader hooks slow its imports, and
 * each library (ours included) loads its published build from node_modules, as in a user's process.
 */
export async function buildPeerBundles(): Promise<PeerBundles> {
  const { build, stop } = await import("esbuild");
  await mkdir(OUT_DIR, { recursive: true });
  const bundles: PeerBundles = {
    worker: `${OUT_DIR}peer-worker.mjs`,
    generatedServer: `${OUT_DIR}generated-tools-server.mjs`,
    lightServer: `${OUT_DIR}light-tools-server.mjs`,
  };
  const entries: [string, string][] = [
    [fileURLToPath(new URL("peer-worker.ts", import.meta.url)), bundles.worker],
    [fileURLToPath(new URL("../servers/generated-tools-server.ts", import.meta.url)), bundles.generatedServer],
    [fileURLToPath(new URL("../servers/light-tools-server.ts", import.meta.url)), bundles.lightServer],
  ];
  try {
    await Promise.all(
      entries.map(([entry, outfile]) =>
        build({
          entryPoints: [entry],
          outfile,
          bundle: true,
          packages: "external",
          platform: "node",
          format: "esm",
          target: "node20",
          logLevel: "error",
        }),
      ),
    );
  } finally {
    // esbuild's service process would otherwise outlive the build (and count as a leftover process).
    await stop();
  }
  return bundles;
}
