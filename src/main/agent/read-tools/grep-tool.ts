import { spawn } from "node:child_process";
import { stat } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import {
  createGrepToolDefinition,
  DEFAULT_MAX_BYTES,
  defineTool,
  formatSize,
  type GrepToolDetails,
  truncateHead,
  truncateLine,
} from "@earendil-works/pi-coding-agent";
import type { HiddenFolders } from "./hidden-folders";
import { localProgram } from "./local-program";
import { resolveLikePi } from "./pi-paths";

/** Pi 1.6's grep defaults (`DEFAULT_LIMIT`, `GREP_MAX_LINE_LENGTH` in its grep.js and truncate.js). */
const DEFAULT_LIMIT = 100;
const MAX_LINE_LENGTH = 500;

/**
 * Pi's `grep` tool, whose search leaves the hidden folders out wherever they lie below the path asked.
 * Pi runs ripgrep with `--hidden` and offers no way to add arguments, so `grep {pattern, path: "."}` in a
 * workspace holding Pi Desk's data folder returned its files' lines. This is Pi 1.6's execute (same
 * arguments to ripgrep, same output, limits and notices) with one `--glob !/<folder>` per hidden folder
 * below the searched folder, given last so that no glob of the model's can bring the folder back (ripgrep:
 * the later glob wins).
 */
export function createDeskGrepTool(
  cwd: string,
  hidden: HiddenFolders,
): ReturnType<typeof createGrepToolDefinition> {
  const pi = createGrepToolDefinition(cwd);
  return defineTool({
    ...pi,
    async execute(_toolCallId, params, signal) {
      if (signal?.aborted) throw new Error("Operation aborted");
      const rg = localProgram(["rg"]);
      if (!rg) {
        throw new Error(
          "ripgrep (rg) is not installed. Install ripgrep, or propose a run_command with grep -rn.",
        );
      }
      const searchPath = resolveLikePi(params.path || ".", cwd);
      let isDirectory: boolean;
      try {
        isDirectory = (await stat(searchPath)).isDirectory();
      } catch {
        throw new Error(`Path not found: ${searchPath}`);
      }
      const contextValue =
        params.context && params.context > 0
          ? Math.min(Math.floor(params.context), Number.MAX_SAFE_INTEGER)
          : 0;
      const limit = Math.max(1, Math.floor(params.limit ?? DEFAULT_LIMIT));
      const args = ["--no-config", "--json", "--line-number", "--color=never", "--hidden"];
      if (params.ignoreCase) args.push("--ignore-case");
      if (params.literal) args.push("--fixed-strings");
      if (params.glob) args.push("--glob", params.glob.replace(/^(!?)(?:\.\/)+/, "$1"));
      if (contextValue > 0) args.push("--context", String(contextValue));
      // After the model's glob: the later glob wins, so these cannot be undone by it.
      if (isDirectory) for (const glob of hidden.globsUnder(searchPath)) args.push("--glob", `!${glob}`);
      args.push("--", params.pattern, isDirectory ? "." : searchPath);
      const found = await runRipgrep(
        rg,
        args,
        isDirectory ? searchPath : undefined,
        limit,
        contextValue,
        signal,
      );
      const formatPath = (filePath: string) => {
        if (isDirectory) {
          const rel = path.relative(searchPath, path.resolve(searchPath, filePath));
          if (rel && !rel.startsWith("..")) return rel.replace(/\\/g, "/");
        }
        return path.basename(filePath);
      };
      return render(found, formatPath, limit);
    },
  });
}

/** One line ripgrep reported: a match or a line of context around one. */
type Hit = { file: string; line: number; text: string; isMatch: boolean };

/** What one search found, as Pi's grep counts it. */
type Found = { hits: Hit[]; matches: number; limitReached: boolean };

/** Runs ripgrep and collects its lines up to `limit` matches (plus the last one's trailing context). */
function runRipgrep(
  rg: string,
  args: string[],
  cwd: string | undefined,
  limit: number,
  context: number,
  signal: AbortSignal | undefined,
): Promise<Found> {
  return new Promise((resolve, reject) => {
    const child = spawn(rg, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    const lines = createInterface({ input: child.stdout });
    const found: Found = { hits: [], matches: 0, limitReached: false };
    let stderr = "";
    let aborted = false;
    let stoppedAtLimit = false;
    let limitHit = false;
    let trailingContextEnd = 0;
    const onAbort = () => {
      aborted = true;
      child.kill();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    lines.on("line", (line) => {
      if (stoppedAtLimit || !line.trim()) return;
      let event: { type?: string; data?: RgData };
      try {
        event = JSON.parse(line);
      } catch {
        return;
      }
      const isMatch = event.type === "match";
      if (!isMatch && event.type !== "context") return;
      const file = decode(event.data?.path);
      const lineNumber = event.data?.line_number;
      if (!file || typeof lineNumber !== "number") return;
      const hit = { file, line: lineNumber, text: decode(event.data?.lines), isMatch };
      if (!limitHit) {
        found.hits.push(hit);
        if (!isMatch) return;
        found.matches++;
        if (found.matches >= limit) {
          limitHit = true;
          trailingContextEnd = lineNumber + context;
        }
        return;
      }
      // As in Pi: the last match's trailing context is kept, and only one more match proves the cut.
      const last = found.hits[found.hits.length - 1];
      const inWindow = file === last?.file && lineNumber <= trailingContextEnd;
      if (inWindow) found.hits.push({ ...hit, isMatch: false });
      if (isMatch) found.limitReached = true;
      if (found.limitReached && !(inWindow && lineNumber < trailingContextEnd)) {
        stoppedAtLimit = true;
        child.kill();
      }
    });
    child.on("error", (error) => {
      signal?.removeEventListener("abort", onAbort);
      reject(new Error(`Failed to run ripgrep: ${error.message}`));
    });
    child.on("close", (code) => {
      lines.close();
      signal?.removeEventListener("abort", onAbort);
      if (aborted) reject(new Error("Operation aborted"));
      else if (!stoppedAtLimit && code !== 0 && code !== 1) {
        reject(new Error(stderr.trim() || `ripgrep exited with code ${code}`));
      } else resolve(found);
    });
  });
}

/** A path or line in ripgrep's JSON: text, or base64 bytes where it is not UTF-8. */
type RgText = { text?: string; bytes?: string };

/** The part of a ripgrep JSON event read here. */
type RgData = { path?: RgText; lines?: RgText; line_number?: number };

function decode(data: RgText | undefined): string {
  if (typeof data?.text === "string") return data.text;
  if (typeof data?.bytes === "string") return Buffer.from(data.bytes, "base64").toString("utf-8");
  return "";
}

/** Pi 1.6's grep output: `path:line: text` for matches, `path-line- text` for context, then its notices. */
function render(found: Found, formatPath: (file: string) => string, limit: number) {
  if (found.matches === 0)
    return { content: [{ type: "text" as const, text: "No matches found" }], details: undefined };
  let linesTruncated = false;
  let bytes = 0;
  const out: string[] = [];
  for (const hit of found.hits) {
    const { text, wasTruncated } = truncateLine(hit.text.replace(/\r?\n?$/, ""), MAX_LINE_LENGTH);
    if (wasTruncated) linesTruncated = true;
    const line = hit.isMatch
      ? `${formatPath(hit.file)}:${hit.line}: ${text}`
      : `${formatPath(hit.file)}-${hit.line}- ${text}`;
    if (bytes - 1 <= DEFAULT_MAX_BYTES) out.push(line);
    bytes += Buffer.byteLength(line, "utf-8") + 1;
  }
  const truncation = { ...truncateHead(out.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER }) };
  truncation.totalLines = found.hits.length;
  truncation.totalBytes = bytes - 1;
  let output = truncation.content;
  const details: GrepToolDetails = {};
  const notices: string[] = [];
  if (found.limitReached) {
    notices.push(`${limit} matches limit reached. Use limit=${limit * 2} for more, or refine pattern`);
    details.matchLimitReached = limit;
  }
  if (truncation.truncated) {
    notices.push(`${formatSize(DEFAULT_MAX_BYTES)} limit reached`);
    details.truncation = truncation;
  }
  if (linesTruncated) {
    notices.push(`Some lines truncated to ${MAX_LINE_LENGTH} chars. Use read tool to see full lines`);
    details.linesTruncated = true;
  }
  if (notices.length > 0) output += `\n\n[${notices.join(". ")}]`;
  return {
    content: [{ type: "text" as const, text: output }],
    details: Object.keys(details).length > 0 ? details : undefined,
  };
}
