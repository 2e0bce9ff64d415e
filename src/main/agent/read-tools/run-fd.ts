import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

/**
 * Runs fd with `args` and gives back the lines it printed (trimmed, empty ones dropped); fails with fd's
 * own words when it exits with an error having found nothing.
 */
export function runFd(fd: string, args: readonly string[]): Promise<string[]> {
  return new Promise((done, fail) => {
    const child = spawn(fd, args, { stdio: ["ignore", "pipe", "pipe"] });
    const found: string[] = [];
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    createInterface({ input: child.stdout }).on("line", (raw) => {
      const line = raw.replace(/\r$/, "").trim();
      if (line) found.push(line);
    });
    child.on("error", (error) => fail(new Error(`Failed to run fd: ${error.message}`)));
    child.on("close", (code) => {
      if (code !== 0 && found.length === 0) fail(new Error(stderr.trim() || `fd exited with code ${code}`));
      else done(found);
    });
  });
}
