/** The English words of the composer: sending, steering and queueing, images, `/` and `@`, the context meter. */
export const composerEn = {
  promptLabel: "Message to the agent",
  promptPlaceholder: "Ask about the repository… (Enter sends, Shift+Enter for a new line)",
  send: "Send",
  steer: "Steer",
  steerHint:
    "Sent to the agent after the step it is on (Enter). Alt+Enter keeps it for when the agent is done.",
  steerPlaceholder:
    "The agent is working: Enter steers it after the step it is on, Alt+Enter queues for when it is done",
  queue: "Queue",
  queueHint: "Keep this message for when the agent is done (Alt+Enter)",
  queuedHeading: "Messages waiting to reach the agent",
  queuedMode: { steer: "after this step", "follow-up": "when done" },
  queuedRemove: (text: string) => `Take back: ${text.slice(0, 60)}`,
  attachments: "Images",
  attachmentRemove: (name: string) => `Remove ${name}`,
  imageAlt: (index: number) => `Image ${index}`,
  imagesUnavailable: (count: number) =>
    `${count === 1 ? "An image" : `${count} images`} went with this message; it could not be shown.`,
  imagesNotRead: (model: string) =>
    `${model} does not read images. Pick a model that does to attach one, or describe what it shows.`,
  imageType: (name: string) => `${name} is not an image Pi Desk can send: attach a PNG, JPEG, GIF or WebP.`,
  imagesTooMany: (most: number) => `A message may carry ${most} images at most.`,
  imagesTooBig: (megabytes: number) =>
    `A message's images may come to ${megabytes} MB together: attach smaller ones (a screenshot of a part of the screen).`,
  imageUnreadable: "That image could not be read. Save it as a file and attach it again.",
  chatNamed: (name: string) => `Named this chat “${name}”.`,
  commandFailed: (reason: string) => `Could not do that: ${reason}`,
  nameMissing: "Give the chat a name: /name and the name.",
  thinkingLevels: (levels: string) =>
    `This model thinks at these levels: ${levels}. Type /thinking and one of them.`,
  modelMissing: (names: string) => `Type /model and a model's name: ${names}.`,
  modelUnknown: (typed: string, names: string) =>
    `No usable model is called "${typed}". The models: ${names}.`,
  modelAmbiguous: (typed: string, names: string) =>
    `"${typed}" names several models (${names}): type more of the name.`,
  dropNoPath: (name: string) =>
    `The browser does not say where ${name} lies. Type @ and a few letters of its name to name it.`,
  dropOutside: (name: string, folder: string) =>
    `${name} is outside this chat's folder (${folder}), and the agent's tools read only inside it. Copy it in first, or paste what matters from it.`,
  nothingToRewind: "There is no message of yours to go back to yet.",
  fileMenu: "Files",
  fileMenuListing: "Listing the folder's files…",
  fileMenuNone: "No file or folder matches",
  fileMenuFailed: (reason: string) => `Could not list the folder's files: ${reason}`,
  fileMenuCapped: (searched: number) =>
    `This folder is large: only its first ${searched.toLocaleString()} files and folders are searched.`,
  slashMenu: "Commands",
  slashNone: "No command starts like this",
  slashProjectSkipped:
    "This project's own templates and skills are not loaded (it is not trusted in Pi): run /trust in pi to use them.",
  slashKind: { template: "prompt template", skill: "skill", desk: "Pi Desk" },
  contextUsed: (percent: number, used: string, window: string) =>
    `Context ${percent}% (${used} of ${window})`,
  contextUnknown: (window: string) => `Context: not counted yet (window ${window})`,
  contextTitle: "How much of the model's context window the conversation takes, as of the last answer",
  contextNearlyFull: "Nearly full: compact, or start a new chat",
  compact: "Compact",
  compacting: "Compacting…",
  compactHint: "Replace the conversation so far with a summary the model reads instead (Pi's compaction)",
  compactFailed: (reason: string) => `Could not compact: ${reason}`,
  compacted: (reason: "manual" | "threshold" | "overflow" | "stored", tokensBefore: number) =>
    `${reason === "manual" ? "Compacted" : reason === "stored" ? "Compacted earlier" : "Compacted automatically"}: the model reads this summary instead of the ${tokensBefore.toLocaleString("en")} tokens before`,
  unsentBack: (count: number) =>
    count === 1
      ? "Stopped. The message still waiting was not sent: it is back in the box."
      : `Stopped. The ${count} messages still waiting were not sent: they are back in the box.`,
};
