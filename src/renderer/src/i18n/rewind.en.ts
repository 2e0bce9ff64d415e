/** The English messages of rewind: the person's message's actions, the preview, and going back. */
export const rewindEn = {
  rewind: "Rewind to here",
  rewindHint:
    "Take the chat back to before this message, with the files its later commands and edits changed",
  edit: "Edit",
  editHint: "Edit this message and send it again: a rewind to here with the new text",
  fork: "Fork from here",
  forkHint: "Start a new chat from before this message, in the same folder (this chat stays as it is)",
  forkFailed: (reason: string) => `Could not fork: ${reason}`,
  heading: "Rewind to before this message",
  editHeading: "Edit and send again",
  loading: "Reading what the rewind would do…",
  noFiles: "No command or edit after this message changed a file.",
  outcome: { restored: "restored", kept: "kept", "not-recorded": "not recorded" },
  keptBy: { person: "changed since by you (or a program)", "another-chat": "changed since by another chat" },
  showDiff: "What changed since",
  stops: "Still running, stopped first:",
  backgroundTag: "background",
  confirm: "Rewind",
  confirmEdit: "Rewind and send",
  cancel: "Cancel",
  failed: (reason: string) => `Could not rewind: ${reason}`,
  rewound: "Rewound: the files and messages after that one are set aside.",
  back: "Back to where I was",
  backFailed: (reason: string) => `Could not go back: ${reason}`,
  branched: "The chat branched here. Other ways:",
  branchHint:
    "Switch the chat to this branch: its conversation, and the files its commands and edits changed",
  branchMessages: (count: number) => (count === 1 ? "1 message" : `${count} messages`),
  switchHeading: "Switch to this branch",
  switchNoFiles: "No command or edit of either branch changed a file since they parted.",
  confirmSwitch: "Switch",
  switchFailed: (reason: string) => `Could not switch: ${reason}`,
  forkWhere: "Fork into:",
  forkSameFolder: "this folder",
  forkWorktree: "a new worktree",
  forkWorktreeHint:
    "A new worktree from this chat's base, holding the files as they were before this message (this folder stays as it is)",
  switchRecovered: {
    finished:
      "Pi Desk stopped in the middle of a switch to another branch of this chat; it finished it when it started again: the files and the conversation are the other branch's.",
    "rolled-back":
      "Pi Desk stopped in the middle of a switch to another branch of this chat; it rolled it back when it started again: the files and the conversation are as they were before the switch.",
  },
  backRecovered: {
    finished:
      "Pi Desk stopped in the middle of going back to where you were in this chat; it finished it when it started again: the files and the conversation are as they were before the rewind.",
    "rolled-back":
      "Pi Desk stopped in the middle of going back to where you were in this chat; it rolled it back when it started again: the chat is still rewound, and Back to where I was is still offered.",
  },
  recovered: {
    finished:
      "Pi Desk stopped in the middle of a rewind of this chat; it finished it when it started again: the files were put back and the conversation stands before your message.",
    "rolled-back":
      "Pi Desk stopped in the middle of a rewind of this chat; it rolled it back when it started again: the files and the conversation are as they were before the rewind.",
  },
};
