/**
 * `node bench/mcp.bench.ts` (after `npm run build`, or it builds first): what a rule-allowed MCP tool call
 * costs through Pi Desk's gate, against the same number of rule-allowed commands in the same run (the
 * anchor). Through the real browser host (`out/main/serve.js`, scripted model) over its WebSocket: a fresh
 * host per arm and round, both with server-everything configured (so the server's start is in both), the
 * arms alternating. Wall time from the prompt to the chat's "done", per call.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { type Script, type ScriptBlock, startScriptedDesk } from "../harness/desk-server.ts";
import { connectDesk } from "../harness/desk-socket.ts";
import { loadavg } from "../harness/machine-facts.ts";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..");
const require = createRequire(import.meta.url);
const { values: args } = parseArgs({
  allowNegative: true,
  options: {
    rounds: { type: "string", default: "3" },
    calls: { type: "string", default: "100" },
    build: { type: "boolean", default: true },
  },
});
const rounds = Number(args.rounds);
const calls = Number(args.calls);
const everything = join(
  dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")),
  "dist",
  "index.js",
);

const turns = (block: (i: number) => ScriptBlock): ScriptBlock[][] => [
  ...Array.from({ length: calls }, (_, i) => [block(i)]),
  [{ type: "text", text: "done" }],
];
const arms: Record<string, { script: Script; rule: { match: "prefix" | "mcp-server"; pattern: string } }> = {
  commands: {
    script: turns((i) => ({
      type: "toolCall",
      id: `c${i}`,
      name: "run_command",
      arguments: { command: `echo ${i}` },
    })),
    rule: { match: "prefix", pattern: "echo" },
  },
  mcp: {
    script: turns((i) => ({
      type: "toolCall",
      id: `m${i}`,
      name: "mcp__everything__echo",
      arguments: { message: `${i}` },
    })),
    rule: { match: "mcp-server", pattern: "everything" },
  },
};

if (args.build)
  execFileSync(join(repo, "node_modules", ".bin", "electron-vite"), ["build"], {
    cwd: repo,
    stdio: "ignore",
  });
process.chdir(repo);
const loadBefore = loadavg();

async function runArm(name: string): Promise<number> {
  const arm = arms[name] as (typeof arms)[string];
  const agentDir = mkdtempSync(join(tmpdir(), "pi-desk-bench-agent-"));
  mkdirSync(agentDir, { recursive: true });
  writeFileSync(
    join(agentDir, "mcp.json"),
    JSON.stringify({
      mcpServers: { everything: { command: process.execPath, args: [everything, "stdio"] } },
    }),
  );
  const { server, cleanup } = await startScriptedDesk(arm.script, { env: { PI_CODING_AGENT_DIR: agentDir } });
  const desk = await connectDesk(server);
  try {
    const state = await desk.call("getState");
    const chatId = state.chatId as string;
    // The server connected before the clock starts, in both arms.
    while (
      !(await desk.call("getState", { chatId })).session?.mcp?.servers.some((s) => s.status === "connected")
    )
      await new Promise((r) => setTimeout(r, 20));
    await desk.call("addRule", { chatId, effect: "allow", ...arm.rule, scope: "session" });
    const done = new Promise<void>((resolveDone) =>
      desk.onEvent((event) => {
        if (
          event.type === "chat-summary" &&
          event.summary.activity === "idle" &&
          event.summary.lastLine === "done"
        )
          resolveDone();
      }),
    );
    const start = performance.now();
    await desk.call("prompt", { chatId, text: "go" });
    await done;
    return (performance.now() - start) / calls;
  } finally {
    desk.close();
    await cleanup();
    rmSync(agentDir, { recursive: true, force: true });
  }
}

const results: Record<string, number[]> = { commands: [], mcp: [] };
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? ["commands", "mcp"] : ["mcp", "commands"];
  for (const name of order) (results[name] as number[]).push(await runArm(name));
}
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const perCommand = median(results.commands as number[]);
const perMcp = median(results.mcp as number[]);
console.log(
  JSON.stringify(
    {
      calls,
      rounds,
      msPerCall: { commands: results.commands, mcp: results.mcp },
      median: { commands: perCommand, mcp: perMcp },
      ratio: perMcp / perCommand,
      load: { before: loadBefore, after: loadavg() },
    },
    null,
    2,
  ),
);
