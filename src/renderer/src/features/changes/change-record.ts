import type { CommandChanges, RevertEntry } from "../../../../shared/changes";

/** What a card shows of what a command (or a file edit) changed, and of taking it back. */
export interface ChangeRecordView {
  /** The command's or the edit's id: what undo and the diffs name. */
  id: string;
  /** What it changed, once it ended. */
  changes?: CommandChanges;
  /** Undos and restores so far. */
  reverts?: RevertEntry[];
  /** Its record was dropped: no undo any more. */
  changesDropped?: boolean;
}
