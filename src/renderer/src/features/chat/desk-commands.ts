import type { ModelOption, ModelsState, ThinkingLevel } from "../../../../shared/models";
import type { ChatApi } from "../../client/chat-api";
import type { Messages } from "../../i18n/en";
import type { MessageActions } from "../rewind/rewind-context";

/** What Pi Desk's own `/` commands need from the page. */
export interface DeskCommandContext {
  api: ChatApi;
  models: ModelsState | undefined;
  /** Shows a chat (the one `/new` started). */
  showChat: ((chatId: string) => void) | null;
  t: Messages;
  /** The chat's message actions (rewind, fork), where the page offers them. */
  messages?: MessageActions | null;
  /** The person's last message in Pi's session, which /rewind and /fork start from. */
  last?: { entryId: string; text: string } | undefined;
}

/**
 * Runs the box's text when it is one of Pi Desk's own `/` commands (done by the page, never sent to the
 * model): `/compact [instructions]`, `/new`, `/name <name>`, `/model <model>`, `/thinking <level>`, and
 * `/rewind` and `/fork` from the person's last message (as its Rewind to here and Fork from here).
 * Returns undefined for any other text, which goes to Pi (its templates and skills expand there); a command
 * that cannot be done throws, saying what to do.
 */
export function runDeskCommand(text: string, context: DeskCommandContext): Promise<void> | undefined {
  const found = /^\/(compact|new|name|model|thinking|rewind|fork)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!found) return undefined;
  const [, command = "", rest = ""] = found;
  return run(command, rest.trim(), context);
}

/** Does one of the commands; a command that cannot be done rejects, saying what to do. */
async function run(command: string, argument: string, context: DeskCommandContext): Promise<void> {
  const { api, t } = context;
  switch (command) {
    case "compact":
      return api.compact(argument ? { instructions: argument } : {});
    case "rewind":
    case "fork": {
      const { messages, last } = context;
      if (!messages || !last) throw new Error(t.chat.nothingToRewind);
      if (command === "rewind") messages.open(last.entryId, last.text, "rewind");
      else messages.fork(last.entryId);
      return;
    }
    case "new":
      context.showChat?.((await api.newSession()).id);
      return;
    case "name":
      if (!argument) throw new Error(t.chat.nameMissing);
      return api.renameChat({ name: argument });
    case "model": {
      const model = modelNamed(context.models?.options ?? [], argument, t);
      return api.setModel({ provider: model.provider, id: model.id });
    }
    default: {
      const current = context.models?.options.find(
        (option) =>
          option.provider === context.models?.current?.provider && option.id === context.models?.current?.id,
      );
      const levels = current?.thinkingLevels ?? ["off"];
      const level = argument.toLowerCase() as ThinkingLevel;
      if (!levels.includes(level)) throw new Error(t.chat.thinkingLevels(levels.join(", ")));
      return api.setThinkingLevel({ level });
    }
  }
}

/**
 * The usable model the person named: by its id, its name, or `provider/id` exactly, else the one model
 * whose name or id holds what they typed; throws, listing the choices, when none or several do.
 */
function modelNamed(options: readonly ModelOption[], typed: string, t: Messages): ModelOption {
  const usable = options.filter((option) => option.hasKey);
  const names = usable.map((option) => option.name).join(", ");
  if (!typed) throw new Error(t.chat.modelMissing(names));
  const wanted = typed.toLowerCase();
  const key = (option: ModelOption) => `${option.provider}/${option.id}`.toLowerCase();
  const exact = usable.filter(
    (option) =>
      key(option) === wanted || option.id.toLowerCase() === wanted || option.name.toLowerCase() === wanted,
  );
  const holding = usable.filter(
    (option) => key(option).includes(wanted) || option.name.toLowerCase().includes(wanted),
  );
  const matches = exact.length > 0 ? exact : holding;
  if (matches.length === 1) return matches[0] as ModelOption;
  if (matches.length === 0) throw new Error(t.chat.modelUnknown(typed, names));
  throw new Error(t.chat.modelAmbiguous(typed, matches.map((option) => option.name).join(", ")));
}
