import { useMemo, useRef, useState } from "react";
import type { HostState } from "../../../../shared/host-state";
import type { ChatApi } from "../../client/chat-api";
import { useT } from "../../i18n/i18n";
import { useAction } from "../../lib/use-action";
import { useFooterHeight } from "../layout/use-footer-height";
import { ModelPicker, modelsUsable } from "../models/ModelPicker";
import { ModelSetup } from "../models/ModelSetup";
import { type RewindAsk, RewindPanel } from "../rewind/RewindPanel";
import { RewoundBar } from "../rewind/RewoundBar";
import { type MessageActions, MessageActionsContext } from "../rewind/rewind-context";
import { useIsRepository } from "../rewind/use-is-repository";
import { WorktreeBar } from "../worktrees/WorktreeBar";
import { Composer } from "./Composer";
import { ContextMeter } from "./ContextMeter";
import { useShowChat } from "./show-chat";
import { Transcript } from "./Transcript";

/** The conversation: the transcript, the model in use (or how to set one up), and the prompt box. */
export function ChatView({ host, api }: { host: HostState; api: ChatApi }) {
  const t = useT();
  // Shows another chat in full (a fork's new chat).
  const onShowChat = useShowChat();
  const [setupOpen, setSetupOpen] = useState(false);
  const start = useAction();
  const footer = useRef<HTMLDivElement>(null);
  // The rewind the person opened from a message, and the text a rewind puts back into the composer.
  const [ask, setAsk] = useState<RewindAsk | null>(null);
  const [fill, setFill] = useState<{ text: string; seq: number } | undefined>(undefined);
  const fork = useAction();
  const shownChat = host.chats.find((chat) => chat.id === host.chatId);
  const forkIntoWorktree = useIsRepository(api, host.workspace?.id) && !shownChat?.worktree;
  const actions = useMemo<MessageActions>(
    () => ({
      open: (entryId, text, mode) => setAsk({ entryId, text, mode }),
      fork: (entryId, where) =>
        void fork.run(async () => {
          const made = await api.forkChat(where ? { entryId, where } : { entryId });
          onShowChat?.(made.chat.id);
          setFill((last) => ({ text: made.text, seq: (last?.seq ?? 0) + 1 }));
        }, t.rewind.forkFailed),
      forkIntoWorktree,
    }),
    [api, fork.run, onShowChat, t, forkIntoWorktree],
  );
  useFooterHeight(footer, Boolean(host.workspace && host.session));
  if (!host.workspace) return <p className="chat-placeholder muted">{t.chat.noWorkspace}</p>;
  const session = host.session;
  if (!session) {
    return (
      <div className="chat-placeholder">
        <p className="muted">{t.chat.noSession}</p>
        <button
          type="button"
          className="primary"
          disabled={start.busy}
          onClick={() => start.run(() => api.newSession())}
        >
          {t.chats.newChat}
        </button>
        {start.error && (
          <p className="error" role="alert">
            {start.error}
          </p>
        )}
      </div>
    );
  }
  const usable = modelsUsable(host.models);
  // The person's last message written in Pi's session: what /rewind and /fork start from.
  const lastAsked = session.transcript.findLast((item) => item.kind === "user" && item.entryId !== undefined);
  const shown = shownChat;
  return (
    <MessageActionsContext.Provider value={actions}>
      <div className="chat">
        {shown?.worktree && <WorktreeBar chat={shown} api={api} />}
        <Transcript session={session} api={api} />
        <div className="chat-footer" ref={footer}>
          {(!usable || setupOpen) && <ModelSetup models={host.models} api={api} />}
          <div className="model-bar">
            <ModelPicker models={host.models} api={api} />
            {usable && (
              <button
                type="button"
                className="small"
                aria-expanded={setupOpen}
                onClick={() => setSetupOpen(!setupOpen)}
              >
                {t.models.setup}
              </button>
            )}
            {session.context && (
              <ContextMeter context={session.context} running={session.running} api={api} />
            )}
          </div>
          {ask && (
            <RewindPanel
              key={`${ask.entryId}:${ask.mode}`}
              ask={ask}
              api={api}
              onCancel={() => setAsk(null)}
              onDone={(text) => {
                setAsk(null);
                if (text !== undefined) setFill((last) => ({ text, seq: (last?.seq ?? 0) + 1 }));
              }}
            />
          )}
          {session.rewound && !ask && <RewoundBar api={api} />}
          {fork.error && (
            <p className="error" role="alert">
              {fork.error}
            </p>
          )}
          <Composer
            api={api}
            running={session.running}
            queued={session.queued}
            models={host.models}
            folder={shown?.folder}
            fill={fill}
            lastAsked={lastAsked?.kind === "user" ? lastAsked.entryId : undefined}
            lastAskedText={lastAsked?.kind === "user" ? lastAsked.text : undefined}
            projectSkipped={session.projectSkipped}
          />
        </div>
      </div>
    </MessageActionsContext.Provider>
  );
}
