import { accessSync, constants, lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StdioPlatform } from "./platform.js";

/**
 * The launcher of the "tagged" family on Linux x64: a static executable of 552 bytes, no libc, no
 * dynamic loader, assembled from launcher/own-group-linux-x64.s (the build command is in it; a
 * test checks these bytes against it). It calls setpgid(0, 0) and execs the server in place, as
 * the perl launcher does, in a fraction of a millisecond where perl's interpreter takes several.
 * Kept here rather than as a file of the package because a published tarball loses the file's
 * executable bit: the image is written once per user to a private directory and run from there.
 */
export const NATIVE_LAUNCHER_IMAGE =
  "f0VMRgIBAQAAAAAAAAAAAAIAPgABAAAAsABAAAAAAABAAAAAAAAAAGgBAAAAAAAAAAAAAEAAOAACAEAAAwACAAEAAAAFAAAAsAAAAAAAAACwAEAAAAAAALAAQAAAAAAApwAAAAAAAACnAAAAAAAAAAEAAAAAAAAAUeV0ZAYAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAEAAAAAAAAAAx/zH2uG0AAAAPBUiLHCRIi3wkEEiNdCQYSI1U3BC4OwAAAA8FSIP4+HUdSIl8JBhIjT01AAAASIl8JBBIjXQkELg7AAAADwW/AgAAAEiNNSAAAAC6MwAAALgBAAAADwW/fwAAALg8AAAADwUvYmluL3NoAG1jcC10b29sLWFkYXB0ZXI6IGNvdWxkIG5vdCBleGVjdXRlIHRoZSBNQ1Agc2VydmVyCgAuc2hzdHJ0YWIALnRleHQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAsAAAABAAAABgAAAAAAAACwAEAAAAAAALAAAAAAAAAApwAAAAAAAAAAAAAAAAAAAAEAAAAAAAAAAAAAAAAAAAABAAAAAwAAAAAAAAAAAAAAAAAAAAAAAABXAQAAAAAAABEAAAAAAAAAAAAAAAAAAAABAAAAAAAAAAAAAAAAAAAA";

/** The image's name on disk: a new image gets a new name, so an old copy is never run for it. */
const FILE_NAME = "own-group-linux-x64-1";

/** Found once per process and place: the launcher's path, or null where it cannot be run. */
const found = new Map<string, string | null>();
/** Set when an exec of the launcher was refused: perl for the rest of the process. */
let refused = false;

/** The system refused to execute the native launcher (see StdioTransport): use perl from now on. */
export function refuseNativeLauncher(): void {
  refused = true;
}

/**
 * The native launcher's path where it can run: on a `platform` that is Linux x64 (the transport's,
 * injected or real: never this process's behind its back), its private copy in place (written if
 * missing) and executable there (not a noexec mount). Undefined otherwise: then perl is the
 * launcher. The copy lives in `<parent>/mcp-tool-adapter-<uid>` (parent: os.tmpdir() but in
 * tests), which must be a directory of this user that nobody else can write; the file must be
 * this user's, writable by nobody else, and hold exactly the image. Anything else is left alone
 * and perl is used.
 */
export function findNativeLauncher(
  platform: Pick<StdioPlatform, "name" | "arch">,
  parent: string = tmpdir(),
): string | undefined {
  if (refused || platform.name !== "linux" || platform.arch !== "x64") return undefined;
  let file = found.get(parent);
  if (file === undefined) {
    file = installedCopy(parent) ?? null;
    found.set(parent, file);
  }
  return file ?? undefined;
}

function installedCopy(parent: string): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  const directory = join(parent, `mcp-tool-adapter-${uid}`);
  const file = join(directory, FILE_NAME);
  try {
    mkdirSync(directory, { mode: 0o700, recursive: true });
    if (!isPrivate(directory, uid, "directory")) return undefined;
    const image = Buffer.from(NATIVE_LAUNCHER_IMAGE, "base64");
    if (!holdsImage(file, uid, image)) {
      // Written beside it and renamed over it: a process that reads the file sees all of it or none.
      const partial = `${file}.${process.pid}`;
      writeFileSync(partial, image, { mode: 0o700 });
      renameSync(partial, file);
      if (!holdsImage(file, uid, image)) return undefined;
    }
    // X_OK is refused on a noexec mount, where spawn would fail.
    accessSync(file, constants.X_OK);
    return file;
  } catch {
    return undefined;
  }
}

function isPrivate(path: string, uid: number, kind: "directory" | "file"): boolean {
  const stats = lstatSync(path, { throwIfNoEntry: false });
  if (stats === undefined || stats.uid !== uid || (stats.mode & 0o022) !== 0) return false;
  return kind === "directory" ? stats.isDirectory() : stats.isFile();
}

function holdsImage(file: string, uid: number, image: Buffer): boolean {
  return isPrivate(file, uid, "file") && readFileSync(file).equals(image);
}
