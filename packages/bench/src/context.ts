import type { BenchSettings, PeerOptions } from "./settings.js";
import type { WarningRecorder } from "./warnings.js";

/** What every scenario gets: the settings, the warning recorder and a progress line printer. */
export interface BenchContext {
  readonly settings: BenchSettings;
  readonly warnings: WarningRecorder;
  /** A/A calibration: the "adapter" side runs the raw SDK too. */
  readonly calibrate: boolean;
  /** The peer comparison's options. */
  readonly peers: PeerOptions;
  /** Progress for the person watching; goes to stderr so stdout stays the results table. */
  progress(message: string): void;
}
