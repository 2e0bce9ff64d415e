import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";
import type { TimeoutLimits } from "./command-timeout";
import type { SandboxSettings } from "./sandbox/sandbox";

/** What the model may pass to `run_command`; the host validates each value again before anything runs. */
export const parameters = Type.Object({
  command: Type.String({ description: "The shell command to run (bash), in the workspace folder." }),
  timeout: Type.Optional(
    Type.Number({ description: "Timeout in seconds; the host applies its default when absent and caps it." }),
  ),
  background: Type.Optional(
    Type.Boolean({
      description:
        "Keep it running after this call returns, for a dev server or a watcher. The call returns once the " +
        "command is ready (it prints a URL or opens a port, or after about 10 s) with its id, ports and output " +
        "so far; read more with command_output and end it with stop_command. The timeout does not apply: it " +
        "runs until stopped, its chat closes, or the host's cap.",
    }),
  ),
  network: Type.Optional(
    Type.Array(Type.String(), {
      maxItems: 20,
      description:
        "Host names this command needs to reach (registry.npmjs.org, *.githubusercontent.com), when the " +
        "sandbox keeps it off the network. Only a request: the user sees it and may grant them; nothing is " +
        "allowed because you asked.",
    }),
  ),
});

/** What the model is told of `run_command`: where it runs, its limits, and what the host adds to results. */
export function describeRunCommand(tool: {
  workspaceRoot: string;
  limits: TimeoutLimits;
  allowedBinaries: readonly string[];
  sandbox: SandboxSettings | undefined;
  recordsChanges: boolean;
}): string {
  const { workspaceRoot, limits, allowedBinaries, sandbox } = tool;
  return (
    `Run a bash command in the workspace folder (${workspaceRoot}); the user approves each command before it ` +
    `runs. stdin is closed. The timeout defaults to ${limits.defaultSeconds} s and is capped at ` +
    `${limits.maxSeconds} s. Output is stdout and stderr merged; you see the last ${DEFAULT_MAX_LINES} lines or ` +
    `${DEFAULT_MAX_BYTES / 1024} KB, and the full output is saved to a file when cut.` +
    (tool.recordsChanges
      ? " The result ends with the files the command changed in the workspace (Files changed: ...); the user " +
        "can undo a command's changes."
      : "") +
    (allowedBinaries.length > 0 ? ` Only these programs may run: ${allowedBinaries.join(", ")}.` : "") +
    (sandbox?.enabled
      ? " Commands run in a sandbox: only the workspace (but not .git/hooks or .git/config) and $TMPDIR are " +
        "writable, the user's home is not visible" +
        (sandbox.network
          ? "."
          : ", and there is no network unless the user allows it for a command" +
            (sandbox.allowedHosts?.length
              ? `; by default a command may reach these hosts through a proxy (HTTP_PROXY and ALL_PROXY are set), ` +
                `and no others: ${sandbox.allowedHosts.join(", ")}. Ask for more with the network parameter.`
              : ". Ask for the hosts a command needs with the network parameter."))
      : "")
  );
}
