/** Pi's thinking levels, least first: the one list the type, the request schema and the picker share. */
export const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh", "max"] as const;

/** How hard the model thinks before answering, as Pi names the levels. */
export type ThinkingLevel = (typeof THINKING_LEVELS)[number];

/** A model the person can pick. */
export interface ModelOption {
  /** The provider's id, e.g. "anthropic". */
  provider: string;
  /** The model's id. */
  id: string;
  /** Its display name. */
  name: string;
  /** Whether a key or login for its provider is configured. */
  hasKey: boolean;
  /** The thinking levels it accepts ("off" only when it does not think). */
  thinkingLevels: ThinkingLevel[];
  /** Whether it reads images (a message's images are refused for a model that does not). */
  images?: boolean;
}

/** The models and the choice in force. */
export interface ModelsState {
  /** Every model Pi knows of, configured ones first. */
  options: ModelOption[];
  /** The model in use, if any. */
  current: { provider: string; id: string } | null;
  /** The thinking level in use. */
  thinkingLevel: ThinkingLevel;
  /** When no model can be used: what to do about it. */
  problem?: string;
  /**
   * A model this chat was meant to use but cannot, because it is gone (no longer among Pi's models, or its
   * provider has no key): the one a reopened chat used, or the workspace's default for new chats.
   */
  unavailable?: UnavailableModel;
}

/** A model that was chosen once and can no longer be used. */
export interface UnavailableModel {
  /** The provider's id. */
  provider: string;
  /** The model's id. */
  id: string;
  /** Whose choice it was: the reopened chat's, or the workspace's default for new chats. */
  of: "chat" | "workspace";
}
