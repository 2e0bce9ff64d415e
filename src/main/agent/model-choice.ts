import type { Api, Model } from "@earendil-works/pi-ai";
import type { AgentSession } from "@earendil-works/pi-coding-agent";
import type { UnavailableModel } from "../../shared/models";
import type { DeskModels, ModelRef } from "./model-runtime";

/** The workspace's default model for a new chat, or why it cannot be used (it is gone). */
export function startingModel(
  models: DeskModels,
  saved: ModelRef | undefined,
): { model?: Model<Api>; unavailable?: UnavailableModel } {
  if (!saved) return {};
  try {
    return { model: models.pick(saved) };
  } catch {
    // Gone from models.json, or its key is: Pi's default stands in, and the picker says so.
    return { unavailable: { ...saved, of: "workspace" } };
  }
}

/** The model a reopened chat last used, as its session file records it. */
export function chatModelOf(session: AgentSession): UnavailableModel | undefined {
  const changes = session.sessionManager.getBranch().filter((entry) => entry.type === "model_change");
  const last = changes.at(-1) as { provider: string; modelId: string } | undefined;
  return last ? { provider: last.provider, id: last.modelId, of: "chat" } : undefined;
}
