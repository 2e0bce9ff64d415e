import type { AgentSession } from "@earendil-works/pi-coding-agent";
import type { ContextState, QueueMode, SlashCommand } from "../../shared/host-state";
import type { PromptImage } from "../../shared/images";
import { errorMessage } from "../base/errors";
import { imagesForModel, imagesIn } from "./prompt-images";
import type { SessionProjection } from "./session-projection";

/**
 * Pi Desk's own `/` commands, done by the page rather than sent to the model (the `pi` command line has
 * its own of the same names).
 */
const DESK_SLASH_COMMANDS: SlashCommand[] = [
  {
    name: "compact",
    description: "Replace the conversation so far with a summary (Pi's compaction)",
    argumentHint: "[what the summary should keep]",
    kind: "desk",
  },
  { name: "new", description: "Start a new chat in this workspace", kind: "desk" },
  { name: "name", description: "Name this chat", argumentHint: "<name>", kind: "desk" },
  {
    name: "model",
    description: "Use another model from the next message on",
    argumentHint: "<model>",
    kind: "desk",
  },
  {
    name: "rewind",
    description: "Take the chat and its files back to before your last message",
    kind: "desk",
  },
  { name: "fork", description: "A new chat from before your last message, beside this one", kind: "desk" },
  {
    name: "thinking",
    description: "Set how hard the model thinks",
    argumentHint: "<off|minimal|low|medium|high|xhigh|max>",
    kind: "desk",
  },
];

/**
 * What the composer asks of one chat: sending (or, while the agent works, steering and queueing), taking a
 * waiting message back, naming the chat, a message's images, the `/` commands, the context's figures and
 * Pi's compaction.
 */
export class ChatComposer {
  constructor(
    private readonly session: AgentSession,
    private readonly projection: SessionProjection,
    /** The context's figures may have moved (after a compaction): the chat tells the page if they did. */
    private readonly contextChanged: () => void,
  ) {}

  /** How full the model's context is and what the chat has cost, as Pi counts them; undefined without a model. */
  get context(): ContextState | undefined {
    const usage = this.session.getContextUsage();
    if (!usage) return undefined;
    return {
      usedTokens: usage.tokens,
      window: usage.contextWindow,
      costUsd: this.session.getSessionStats().cost,
    };
  }

  /** The composer's `/` commands: Pi's prompt templates and skills as this chat's session loaded them, then Pi Desk's. */
  slashCommands(): SlashCommand[] {
    const templates = this.session.promptTemplates.map((template) => ({
      name: template.name,
      description: template.description,
      ...(template.argumentHint ? { argumentHint: template.argumentHint } : {}),
      kind: "template" as const,
    }));
    const skills = this.session.resourceLoader.getSkills().skills.map((skill) => ({
      name: `skill:${skill.name}`,
      description: skill.description,
      kind: "skill" as const,
    }));
    return [...templates, ...skills, ...DESK_SLASH_COMMANDS];
  }

  /**
   * Compacts the conversation with Pi's compaction (the summary comes as a transcript entry). Refused while
   * the agent works: Pi would abort the turn under way.
   */
  async compact(instructions?: string): Promise<void> {
    if (this.projection.running || this.session.isStreaming) {
      throw new Error("The agent is working: wait for it to finish, or press Stop, then compact.");
    }
    await this.session.compact(instructions?.trim() || undefined);
    this.contextChanged();
  }

  /**
   * Sends the person's message; the answer streams as events. While the agent works it waits instead:
   * steering reaches the model after the tool call under way, a follow-up once the agent is done.
   */
  async prompt(text: string, mode: QueueMode = "steer", images: readonly PromptImage[] = []): Promise<void> {
    const working = this.projection.running || this.session.isStreaming;
    if (working && images.length > 0) {
      // Pi gives a waiting message back as text only (taking one back, Stop), so its images would be lost.
      throw new Error(
        "Images go with a message sent once the agent is done: wait for it, or Stop, then send.",
      );
    }
    if (working) {
      if (mode === "follow-up") await this.session.followUp(text);
      else await this.session.steer(text);
      return;
    }
    const attached = images.length > 0 ? await imagesForModel(images, this.session.model) : undefined;
    this.session.prompt(text, attached ? { images: attached } : undefined).catch((error: unknown) => {
      // Kept in the conversation's projection, not only sent: a snapshot (a reload, another chat shown and
      // back) still has it.
      this.projection.addNotice("error", `${errorMessage(error)} Configure a model in settings.`);
    });
  }

  /** Names the chat (Pi's session name, kept in its session file) and says so in the conversation. */
  rename(name: string): void {
    const trimmed = name.trim().replace(/\s+/g, " ");
    if (!trimmed) throw new Error("Give the chat a name: /name and the name.");
    this.session.setSessionName(trimmed);
    this.projection.addNotice("info", `Named this chat "${trimmed}".`, { id: "chat-named", name: trimmed });
  }

  /** The images of one of the person's messages, by its entry in Pi's session file. */
  messageImages(entryId: string): PromptImage[] {
    const entry = this.session.sessionManager.getEntry(entryId);
    if (entry?.type !== "message" || entry.message.role !== "user") {
      throw new Error("That message is not in this chat's conversation.");
    }
    return imagesIn(entry.message.content);
  }

  /**
   * Takes back a message still waiting: Pi can only clear its whole queue, so the others are queued again,
   * in their order.
   */
  async removeQueued(mode: QueueMode, index: number): Promise<void> {
    const { steering, followUp } = this.session.clearQueue();
    const list = mode === "steer" ? steering : followUp;
    const found = index < list.length;
    if (found) list.splice(index, 1);
    for (const text of steering) await this.session.steer(text);
    for (const text of followUp) await this.session.followUp(text);
    if (!found) {
      throw new Error("That message is no longer waiting: it reached the model already, or was taken back.");
    }
  }
}
