import { join } from "node:path";
import {
  type Api,
  getSupportedThinkingLevels,
  InMemoryCredentialStore,
  type Model,
  type ModelThinkingLevel,
} from "@earendil-works/pi-ai";
import { getAgentDir, ModelRuntime } from "@earendil-works/pi-coding-agent";
import { FailedResponseWatch } from "./failed-response-watch";
import {
  loadScript,
  registerScriptedModel,
  SCRIPT_ENV,
  type ScriptRequest,
  scriptPathFromEnv,
} from "./scripted-model";

/** How to set up the models. Pi's configuration is read from its agent dir (`PI_CODING_AGENT_DIR` or `~/.pi/agent`). */
export interface DeskModelsOptions {
  /** Read for `PI_DESK_SCRIPT`; default `process.env`. Provider keys are always read from `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Bounds start-up (the CLI allows 15 s): refreshing stored OAuth credentials may wait on the network. */
  signal?: AbortSignal;
  /** Scripted streaming speed, for demos; default as fast as the event loop allows. */
  scriptTokensPerSecond?: number;
  /** Sees each request the scripted model answers, with the transcript it was sent (tests, logs). */
  onScriptRequest?: (request: ScriptRequest) => void;
}

/** Names one model. */
export interface ModelRef {
  /** The provider id, e.g. `anthropic`. */
  provider: string;
  /** The model id within the provider, e.g. `claude-sonnet-4-5`. */
  id: string;
}

/** Where a provider's key comes from, as Pi reports it. */
export type KeySource = NonNullable<ReturnType<ModelRuntime["getProviderAuthStatus"]>["source"]>;

/** One model as the model picker shows it. */
export interface ModelSummary extends ModelRef {
  /** The model's display name. */
  name: string;
  /** The provider's display name. */
  providerName: string;
  /** Whether Pi has credentials for the provider (environment, auth.json, models.json or a runtime key). */
  hasKey: boolean;
  /** Where the key comes from, when Pi knows. */
  keySource?: KeySource;
  /** Whether the model can think before it answers. */
  reasoning: boolean;
  /** The thinking levels the model accepts, `off` first. */
  thinkingLevels: ModelThinkingLevel[];
  /** True for the model `PI_DESK_SCRIPT` plays. */
  scripted: boolean;
  /** Whether it reads images. */
  images: boolean;
}

/**
 * Pi's model runtime set up the way the `pi` CLI sets it up (agent dir, `auth.json`, `models.json`, keys
 * from the environment), or, when `PI_DESK_SCRIPT` names a script, an offline runtime whose only usable
 * model plays the script.
 */
export class DeskModels {
  /** The status and `Retry-After` of the providers' failed responses, which Pi's error text leaves out. */
  readonly failures = new FailedResponseWatch();

  private constructor(
    /** The runtime to pass to `createAgentSession`. */
    readonly runtime: ModelRuntime,
    /** The agent dir the runtime reads. */
    readonly agentDir: string,
    /** The scripted model, when `PI_DESK_SCRIPT` is set. */
    readonly scriptedModel: Model<Api> | undefined,
  ) {
    this.failures.install(runtime);
  }

  /**
   * Creates the runtime. It makes no network request: catalogs come from Pi's built-in data and the
   * catalog refresh stays local. It creates the agent dir with empty `auth.json` and `models-store.json`
   * when they are missing, as the `pi` CLI does. Throws the script's error when `PI_DESK_SCRIPT` is bad.
   */
  static async create(options: DeskModelsOptions = {}): Promise<DeskModels> {
    const scriptPath = scriptPathFromEnv(options.env ?? process.env);
    if (scriptPath) {
      const script = loadScript(scriptPath);
      // In memory, so a scripted run never writes to (or reads keys from) the person's agent dir.
      const runtime = await ModelRuntime.create({
        credentials: new InMemoryCredentialStore(),
        modelsPath: null,
        refreshOnCreate: false,
      });
      const model = registerScriptedModel(runtime, script, {
        tokensPerSecond: options.scriptTokensPerSecond,
        onRequest: options.onScriptRequest,
      });
      // Registration checks auth in a background pass; until one ends the runtime reports no key for the
      // new provider, and Pi would not restore the scripted model of a reopened session. A refresh of that
      // provider alone loses to the background pass, so this is a full (local, ~10 ms) one.
      await runtime.refresh({ allowNetwork: false });
      return new DeskModels(runtime, getAgentDir(), model);
    }
    // Pi's agent dir is `PI_CODING_AGENT_DIR` or `~/.pi/agent`; sessions are keyed to it as well.
    const agentDir = getAgentDir();
    const runtime = await ModelRuntime.create({
      authPath: join(agentDir, "auth.json"),
      modelsPath: join(agentDir, "models.json"),
      signal: options.signal ?? AbortSignal.timeout(15_000),
    });
    return new DeskModels(runtime, agentDir, undefined);
  }

  /** A problem with `models.json` (or a provider), to show the person; undefined when all is well. */
  problem(): string | undefined {
    return this.runtime.getError();
  }

  /**
   * The models to choose from: every model Pi knows, each saying whether its provider has a key, or only
   * those with a key. With a script, only the scripted model, so a test or demo cannot reach a real provider.
   */
  list(options: { withKeyOnly?: boolean } = {}): ModelSummary[] {
    const models = this.scriptedModel ? [this.scriptedModel] : this.runtime.getModels();
    const summaries = models.map((model) => this.summarize(model));
    return options.withKeyOnly ? summaries.filter((summary) => summary.hasKey) : summaries;
  }

  /**
   * The model to start a session with. With a reference: that model, or an error that says what to do.
   * Without: the scripted model, or undefined, which lets Pi choose as the CLI does (the default model in
   * settings, then a known-good model of a provider with a key).
   */
  pick(ref?: ModelRef): Model<Api> | undefined {
    if (this.scriptedModel) {
      if (!ref || (ref.provider === this.scriptedModel.provider && ref.id === this.scriptedModel.id)) {
        return this.scriptedModel;
      }
      throw new Error(
        `${SCRIPT_ENV} is set, so the scripted model is the only model. Unset ${SCRIPT_ENV} to use ${ref.provider}/${ref.id}.`,
      );
    }
    if (!ref) return undefined;
    const model = this.runtime.getModel(ref.provider, ref.id);
    if (!model) {
      const known = this.runtime.getProvider(ref.provider)
        ? `Provider ${ref.provider} has no model "${ref.id}"`
        : `Pi knows no provider "${ref.provider}"`;
      throw new Error(
        `${known}. Choose a model from the list, or add it to ${join(this.agentDir, "models.json")}.`,
      );
    }
    if (!this.runtime.hasConfiguredAuth(model.provider))
      throw new Error(this.missingKeyMessage(model.provider));
    return model;
  }

  /** Keeps an API key for a provider in memory for this run; nothing is written to disk. */
  async setApiKey(provider: string, key: string): Promise<void> {
    if (!this.runtime.getProvider(provider)) {
      throw new Error(`Pi knows no provider "${provider}". Choose a provider from the model list.`);
    }
    const trimmed = key.trim();
    if (!trimmed) throw new Error(`The API key for ${provider} is empty. Paste the whole key.`);
    await this.runtime.setRuntimeApiKey(provider, trimmed);
  }

  private summarize(model: Model<Api>): ModelSummary {
    const scripted = model === this.scriptedModel;
    // The scripted provider needs no key; Pi reports its key source as "environment", which would mislead.
    const status = scripted ? { source: undefined } : this.runtime.getProviderAuthStatus(model.provider);
    return {
      provider: model.provider,
      id: model.id,
      name: model.name,
      providerName: this.runtime.getProvider(model.provider)?.name ?? model.provider,
      hasKey: this.runtime.hasConfiguredAuth(model.provider),
      ...(status.source ? { keySource: status.source } : {}),
      reasoning: model.reasoning,
      thinkingLevels: getSupportedThinkingLevels(model),
      scripted,
      images: model.input.includes("image"),
    };
  }

  private missingKeyMessage(providerId: string): string {
    const provider = this.runtime.getProvider(providerId);
    const keyName = provider?.auth.apiKey?.name ?? "API key";
    const login = provider?.auth.oauth ? `, or log in with the pi CLI (/login)` : "";
    return `No ${keyName} for ${provider?.name ?? providerId}. Enter one in Pi Desk, set it in the environment before starting Pi Desk, or add it to ${join(this.agentDir, "auth.json")}${login}.`;
  }
}
