import {
  createEditToolDefinition,
  createWriteToolDefinition,
  defineTool,
  type ToolDefinition,
} from "@earendil-works/pi-coding-agent";
import type { EditTool, FileEditDetails } from "../../../shared/edits";
import { errorMessage } from "../../base/errors";
import { type EditCallContext, FileEditCall, type WrittenEdit } from "./file-edit-call";
import { diffText } from "./proposed-diff";

/** What the model is told of the edit tools beside Pi's own description. */
const EDIT_NOTE =
  " In Pi Desk the user sees each edit as a diff and approves, changes or denies it before anything is " +
  "written. Change files with edit and write; use run_command to run programs, not to write files.";

/** What the system prompt says of changing files, beside the tools' own descriptions. */
export const EDITING_GUIDANCE =
  "Change files with the edit and write tools: the user sees each change as a diff and approves it before it " +
  "is written. Use run_command to run programs (tests, builds, git), not to write files with shell redirections.";

/**
 * Pi's own `edit` and `write` tools, with their schemas and descriptions (so models use them as they know
 * them), whose every file access goes through a `FileEditCall`: checked paths, and a write that waits for
 * the person. Each call's result carries `FileEditDetails` for the card and the session file.
 */
export function createEditTools(context: EditCallContext): ToolDefinition[] {
  const { root } = context;
  return [
    gated("edit", createEditToolDefinition(root), (call) =>
      createEditToolDefinition(root, { operations: call.editOperations }),
    ),
    gated("write", createWriteToolDefinition(root), (call) =>
      createWriteToolDefinition(root, { operations: call.writeOperations }),
    ),
  ];

  function gated(tool: EditTool, shape: PiTool, forCall: (call: FileEditCall) => PiTool): ToolDefinition {
    return defineTool({
      ...shape,
      description: `${shape.description}${EDIT_NOTE}`,
      async execute(toolCallId, params, signal, onUpdate, ctx) {
        const call = new FileEditCall(context, toolCallId, tool, signal);
        const asked = String((params as { path?: unknown }).path ?? "");
        try {
          const result = await forCall(call).execute(toolCallId, params, signal, onUpdate, ctx);
          if (!call.written) return result;
          return appliedResult(tool, call.written, textOf(result.content));
        } catch (error) {
          // Written and then stopped (Pi checks the signal once more after the write): it was applied.
          if (call.written) return appliedResult(tool, call.written, `Wrote ${call.written.target.path}.`);
          const stopped = call.stopped;
          const message = stopped?.message ?? errorMessage(error);
          const details: FileEditDetails = {
            piDesk: "file-edit",
            status: stopped?.status ?? "failed",
            path: stopped?.target?.path ?? asked,
            tool,
            reason: message,
            ...(stopped?.say ? { reasonSay: stopped.say } : {}),
          };
          return { content: [{ type: "text", text: message }], details, isError: true };
        }
      },
    });
  }
}

/** Pi's edit or write definition, whatever its parameter and render types. */
// biome-ignore lint/suspicious/noExplicitAny: the two tools' definitions differ in their parameter types.
type PiTool = ToolDefinition<any, any, any>;

/** The result of a written edit: Pi's sentence, what the person changed, and what the file engine recorded. */
function appliedResult(tool: EditTool, written: WrittenEdit, said: string) {
  const text = written.personsChange
    ? `The user changed your proposed ${tool} of ${written.target.path} before applying it; the file now holds ` +
      "their version, not yours. Where it differs from your proposal (- yours, + theirs):\n" +
      diffText(written.personsChange)
    : said;
  const details: FileEditDetails = {
    piDesk: "file-edit",
    status: "applied",
    path: written.target.path,
    tool,
    shape: written.shape,
    diff: written.diff,
    ...(written.personsChange ? { changedByPerson: true } : {}),
    ...(written.changes ? { changes: written.changes } : {}),
  };
  // As for commands: what changed is a second block, which the card shows in its own place.
  const content = [
    { type: "text" as const, text },
    ...(written.note ? [{ type: "text" as const, text: written.note }] : []),
  ];
  return { content, details };
}

function textOf(content: readonly { type: string; text?: string }[]): string {
  return content.map((block) => (block.type === "text" ? (block.text ?? "") : "")).join("");
}
