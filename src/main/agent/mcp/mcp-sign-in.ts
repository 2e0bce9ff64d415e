/**
 * Signing in to a chat's OAuth MCP servers with Pi's own flow (`/mcp login`: discovery, client registration
 * or Pi's client document, PKCE, a loopback callback, tokens in Pi's `mcp-auth.json`), and out (`/mcp
 * logout`). What Pi shows a person comes here: the authorization page's URL goes into the server's view
 * (and to the system browser where the shell can open one), and Pi's question for the redirected URL
 * waits for the person's paste. One sign-in at a time per chat: Pi's `openUrl` does not say which server
 * a page is for.
 */
import { errorMessage } from "../../base/errors";
import type { McpCommandUi } from "./mcp-command";
import type { McpConnections } from "./mcp-transports";

/** Runs Pi's `/mcp <args>` in the chat with this UI. */
export type McpCommandRunner = (args: string, ui: McpCommandUi) => Promise<void>;

/** A sign-in under way. */
interface SignIn {
  name: string;
  /** The person gave it up (before Pi asked for the redirected URL, or while it asks). */
  cancelled: boolean;
  /** Answers Pi's question for the redirected URL, while it asks. */
  answer?: (url: string | undefined) => void;
  /** Called once the authorization page's URL is known. */
  shown: () => void;
}

/** The chat's sign-ins. */
export class McpSignIns {
  private active: SignIn | undefined;

  constructor(
    private readonly connections: McpConnections,
    /** Opens a page in the person's browser; absent where the shell cannot (the page shows the link). */
    private readonly openExternal?: (url: string) => void,
    /** Called after a sign-in succeeded: Pi's credentials serve the host's other chats too. */
    private readonly signedIn?: (name: string) => void,
  ) {}

  /** Pi's `openUrl`: the authorization page of the sign-in under way. */
  readonly openUrl = (url: string): void => {
    const active = this.active;
    // Pi opens a page only for a sign-in, and Pi Desk starts every sign-in itself.
    if (!active) return;
    this.connections.update(active.name, { signingIn: { authorizationUrl: url } });
    this.openExternal?.(url);
    active.shown();
  };

  /**
   * Starts signing in; resolves once the authorization page is known, or when Pi signed in without one (a
   * stored refresh token). Fails when Pi's sign-in failed before it had a page to show.
   */
  async signIn(name: string, run: McpCommandRunner): Promise<void> {
    this.oauthServer(name);
    if (this.active)
      throw new Error(
        `Signing in to "${this.active.name}" is under way in this chat: finish it or cancel it first.`,
      );
    let shown = () => {};
    const pageShown = new Promise<undefined>((resolve) => {
      shown = () => resolve(undefined);
    });
    const signIn: SignIn = { name, cancelled: false, shown };
    this.active = signIn;
    this.connections.update(name, { signingIn: {}, signInError: undefined });
    let failure: string | undefined;
    const ui: McpCommandUi = {
      notify: (message, type) => {
        if (type === "error") failure = message;
      },
      input: (_title, _placeholder, options) =>
        new Promise((resolve) => {
          // An empty answer is Pi's "the person gave up".
          if (signIn.cancelled) return resolve("");
          signIn.answer = resolve;
          // Asked no more: the browser reached Pi's callback first.
          options?.signal?.addEventListener("abort", () => resolve(undefined), { once: true });
        }),
    };
    const ended = run(`login ${name}`, ui).then(
      () => failure,
      (error: unknown) => errorMessage(error),
    );
    void ended.then((reason) => {
      if (this.active === signIn) this.active = undefined;
      this.connections.update(name, { signingIn: undefined, signInError: reason });
      if (!reason && !signIn.cancelled) this.signedIn?.(name);
    });
    const failed = await Promise.race([pageShown, ended]);
    if (failed) throw new Error(failed);
  }

  /** The address the browser was redirected to, pasted by the person: Pi checks it and finishes the sign-in. */
  paste(name: string, url: string): void {
    const signIn = this.underWay(name);
    try {
      new URL(url.trim());
    } catch {
      throw new Error(
        "That is not a URL: paste the whole address the browser shows after you approved (http://127.0.0.1:…/callback?code=…).",
      );
    }
    if (!signIn.answer)
      throw new Error("Pi is not waiting for the address yet: wait for the sign-in page's link, then paste.");
    signIn.answer(url.trim());
  }

  /** Gives up the sign-in under way. */
  cancel(name: string): void {
    const signIn = this.underWay(name);
    signIn.cancelled = true;
    signIn.answer?.("");
  }

  /** Signs out: Pi deletes the stored credentials and drops the connection; the server needs sign-in again. */
  async signOut(name: string, run: McpCommandRunner): Promise<void> {
    this.oauthServer(name);
    if (this.active?.name === name) this.cancel(name);
    let failure: string | undefined;
    await run(`logout ${name}`, {
      notify: (message, type) => {
        if (type === "error") failure = message;
      },
      input: async () => undefined,
    });
    if (failure) throw new Error(failure);
    this.connections.update(name, { status: "needs-sign-in", tools: 0, error: undefined });
  }

  private oauthServer(name: string) {
    const view = this.connections.list().find((server) => server.name === name);
    if (!view)
      throw new Error(
        `This chat has no MCP server named "${name}". Add it to mcp.json, then open a new chat.`,
      );
    if (!view.oauth)
      throw new Error(
        `The MCP server "${name}" does not sign in with OAuth: only a server over HTTP without an Authorization header in mcp.json does.`,
      );
    if (view.status === "disabled")
      throw new Error(`The MCP server "${name}" is turned off: turn it on, then sign in.`);
    return view;
  }

  private underWay(name: string): SignIn {
    if (this.active?.name !== name)
      throw new Error(`No sign-in to "${name}" is under way in this chat: press Sign in first.`);
    return this.active;
  }
}
