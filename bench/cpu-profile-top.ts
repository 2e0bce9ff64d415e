/**
 * The top of a .cpuprofile by self time: `node bench/cpu-profile-top.ts <file.cpuprofile> [rows]`.
 * For the profiles `npm run bench -- --cpu-prof <dir>` writes.
 */
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

const [file, rowsArg] = process.argv.slice(2);
if (!file) {
  console.error("usage: node bench/cpu-profile-top.ts <file.cpuprofile> [rows]");
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, "utf8")) as {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
};
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const self = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const frame = byId.get(id)?.callFrame;
  const delta = profile.timeDeltas[i] ?? 0;
  total += delta;
  const where = frame?.url ? ` ${frame.url.split("/").slice(-2).join("/")}:${frame.lineNumber + 1}` : "";
  const key = `${frame?.functionName || "(anonymous)"}${where}`;
  self.set(key, (self.get(key) ?? 0) + delta);
});
console.log(`${(total / 1000).toFixed(0)} ms sampled`);
for (const [key, micros] of [...self].sort((x, y) => y[1] - x[1]).slice(0, Number(rowsArg ?? 25))) {
  console.log(
    `${(micros / 1000).toFixed(1).padStart(9)} ms ${((100 * micros) / total).toFixed(1).padStart(5)}%  ${key}`,
  );
}
