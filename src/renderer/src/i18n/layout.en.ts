/** The English messages of the shared-height layout: compact transcript lines and scroll areas. */
export const layoutEn = {
  /** The compact transcript line of a command or edit that waits in the tray. */
  waitingFor: "Waiting for you:",
  /** What a click on the compact line does. */
  waitingForHint: "Show its card in the approval tray",
  /** An edit named in the compact line. */
  editOf: (path: string) => `edit ${path}`,
  /** How many entries of a scroll area are out of its view, above and below. */
  outOfView: (above: number, below: number) =>
    [above > 0 ? `${above} more above` : "", below > 0 ? `${below} more below` : ""]
      .filter(Boolean)
      .join(" · "),
  /** A background command in the transcript: where its live output is. */
  showInPanel: "Show in Running",
  /** A host notice: a background command ended, and how (stopped by whom, or its exit code). */
  backgroundEnded: (command: string, how: string) => `Background command ${command}: ${how}.`,
  /** The folded details of a pending card: the parsed commands, the other risk notes. */
  moreDetails: (count: number) => (count === 1 ? "1 more detail" : `${count} more details`),
};
