import type { ModelsState, ThinkingLevel } from "../../shared/models";
import type { DeskModels } from "./model-runtime";
import type { WorkspaceSession } from "./workspace-session";

/** The models as the page shows them, with the chat's choice (none without a chat). */
export function modelsStateOf(models: DeskModels, chat: WorkspaceSession | undefined): ModelsState {
  const agent = chat?.agent;
  const current = agent?.model;
  const problem = models.problem();
  const unavailable = chat?.unavailableModel;
  return {
    options: models.list().map((model) => ({
      provider: model.provider,
      id: model.id,
      name: model.name,
      hasKey: model.hasKey,
      thinkingLevels: model.thinkingLevels as ThinkingLevel[],
      images: model.images,
    })),
    current: current ? { provider: current.provider, id: current.id } : null,
    thinkingLevel: (agent?.thinkingLevel ?? "off") as ThinkingLevel,
    ...(problem ? { problem } : {}),
    ...(unavailable ? { unavailable } : {}),
  };
}
