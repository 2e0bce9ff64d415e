import { readdirSync, readFileSync } from "node:fs";

/** Live (not zombie) pids of `sleep <seconds>`, matched on the exact argv, read from /proc (Linux). */
export function liveSleeps(seconds: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
      // A zombie is dead; PID 1 here may never reap it.
      if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) continue;
      // Exact argv, not a substring: the shell that started the sleep has the same text in its script.
      const argv = readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0");
      if (argv[0]?.endsWith("sleep") && argv[1] === seconds) found.push(pid);
    } catch {
      // gone between readdir and read
    }
  }
  return found;
}

/** Polls until `check` is true or `timeoutMs` passes; returns the last result. */
export async function waitFor(check: () => boolean, timeoutMs = 5_000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}

/** A sleep duration no other test or process uses, so `ps` finds only ours (e.g. "31.4821"). */
export function uniqueSeconds(whole: number): string {
  return `${whole}.${String(Math.floor(Math.random() * 9000) + 1000)}`;
}

/** Only what a command needs to find its tools: the runner adds nothing from process.env. */
export const TEST_ENV: Record<string, string> = { PATH: "/usr/local/bin:/usr/bin:/bin", LANG: "C.UTF-8" };

/** argv for a bash command with stderr merged into stdout, as run-command builds it. */
export function bash(command: string): string[] {
  return ["/bin/bash", "-c", `exec 2>&1\n${command}`];
}
