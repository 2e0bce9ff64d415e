/** Names the proxy variables leave alone: the sandbox's own loopback (a dev server the command started). */
const NO_PROXY = "localhost,127.0.0.1,::1";

/**
 * Keeps Node's fetch going through the proxy (NODE_USE_ENV_PROXY) without the one warning that turns on in
 * Node 22 ("[UNDICI-EHPA] Warning: EnvHttpProxyAgent is experimental"), printed into every Node tool's
 * output: that warning's code only, every other warning still shows. Commands get no NODE_OPTIONS from the
 * host (command-environment.ts), so there is none to keep; a command that sets its own replaces this one.
 * Node older than 20.11 does not know the flag and refuses to start with it; it has no NODE_USE_ENV_PROXY
 * either, and is past its end of life.
 */
export const QUIET_ENV_PROXY_WARNING = "--disable-warning=UNDICI-EHPA";

/**
 * The variables that send a command's tools to the proxy: the common ones in both cases (curl reads only the
 * lower-case `http_proxy`), SOCKS with remote names (`socks5h`: no DNS in the sandbox), and the tools that
 * have their own (npm, pip, yarn, cargo, Node's fetch, git through GIT_CONFIG_*). A tool that ignores them
 * all has no route out and fails to connect; it never gets through.
 */
export function proxyEnvironment(ports: { http: number; socks: number }): Record<string, string> {
  const http = `http://127.0.0.1:${ports.http}`;
  const socks = `socks5h://127.0.0.1:${ports.socks}`;
  return {
    HTTP_PROXY: http,
    HTTPS_PROXY: http,
    http_proxy: http,
    https_proxy: http,
    ALL_PROXY: socks,
    all_proxy: socks,
    NO_PROXY,
    no_proxy: NO_PROXY,
    npm_config_proxy: http,
    npm_config_https_proxy: http,
    npm_config_noproxy: NO_PROXY,
    PIP_PROXY: http,
    YARN_HTTP_PROXY: http,
    YARN_HTTPS_PROXY: http,
    CARGO_HTTP_PROXY: http,
    NODE_USE_ENV_PROXY: "1",
    NODE_OPTIONS: QUIET_ENV_PROXY_WARNING,
    GIT_CONFIG_COUNT: "1",
    GIT_CONFIG_KEY_0: "http.proxy",
    GIT_CONFIG_VALUE_0: http,
  };
}
