/**
 * Why a scan stopped short of a snapshot, in the cases the recorder turns itself off for: the first
 * snapshot ran past its time limit, or the workspace holds more files than recording handles. Each
 * message says what to do to turn recording on again.
 */

/** A scan took longer than its deadline (the first snapshot's time limit). */
export class ScanTimeoutError extends Error {
  override name = "ScanTimeoutError";
}

/** The workspace has more files than recording handles; the engine turns itself off with this message. */
export class TooManyFilesError extends Error {
  override name = "TooManyFilesError";

  constructor(limit: number, found: number) {
    super(
      `The workspace has more than ${limit.toLocaleString("en")} files not ignored ` +
        `(${found.toLocaleString("en")} found); recording changes is off for it. Add its heavy folders ` +
        "to .gitignore, or raise the limit (the host's --changes-max-files), to turn it on.",
    );
  }
}
