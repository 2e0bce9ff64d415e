/**
 * Matching a typed query against a folder's paths, for the composer's `@` finder. Written here rather than
 * taken from a library: on 300,000 paths, fuzzysort's prepared targets held 230 MB and took 360 ms for a
 * one-letter query, and Pi's own `fuzzyFilter` (pi-tui) 150-700 ms a key; this keeps only the paths and
 * narrows the last query's matches as the person types on, which keeps each key well under 100 ms.
 *
 * A path matches when the query's characters appear in it in order, ignoring case. Matches rank by how
 * the query sits in the path (below), then shorter paths first, then by name.
 */

/** How a query sits in a path, best first (plain numbers: the benches run this file with types stripped). */
const Fit = {
  /** The file or folder name is the query. */
  Name: 0,
  /** The name starts with it. */
  NameStart: 1,
  /** The name holds it. */
  InName: 2,
  /** The path holds it. */
  InPath: 3,
  /** Its characters appear in order in the name. */
  ScatteredInName: 4,
  /** Its characters appear in order in the path. */
  ScatteredInPath: 5,
} as const;
type Fit = (typeof Fit)[keyof typeof Fit];

/** The paths matching one query, kept so the next, longer query looks only at them. */
export interface Narrowed {
  query: string;
  /** Indexes into the list of the paths it matched, in list order. */
  matches: Uint32Array;
}

/** One ranked match. */
interface Ranked {
  index: number;
  fit: Fit;
}

/**
 * The best `limit` of `paths` (lower-cased alongside as `lower`) for `query`, and what narrows the next
 * query; `previous` (the last query's narrowing over the same list) is used when `query` extends it, since
 * a path that does not match a query cannot match it lengthened.
 */
export function matchPaths(
  paths: readonly string[],
  lower: readonly string[],
  query: string,
  limit: number,
  previous?: Narrowed,
): { best: number[]; narrowed: Narrowed } {
  const q = query.toLowerCase();
  const inPathOnly = q.includes("/");
  const candidates = previous && q.startsWith(previous.query) ? previous.matches : undefined;
  const count = candidates ? candidates.length : lower.length;
  const matched = new Uint32Array(count);
  let found = 0;
  const best: Ranked[] = [];
  for (let k = 0; k < count; k++) {
    const index = candidates ? (candidates[k] as number) : k;
    const path = lower[index] as string;
    if (!scattered(path, q, 0)) continue;
    matched[found++] = index;
    const fit = inPathOnly ? (path.includes(q) ? Fit.InPath : Fit.ScatteredInPath) : fitOf(path, q);
    keepBest(best, { index, fit }, limit, paths);
  }
  return { best: best.map((entry) => entry.index), narrowed: { query: q, matches: matched.slice(0, found) } };
}

/** How `q` sits in `path` (both lower-cased), given that it appears scattered in the path. */
function fitOf(path: string, q: string): Fit {
  const end = path.endsWith("/") ? path.length - 1 : path.length;
  const nameStart = path.lastIndexOf("/", end - 1) + 1;
  const at = path.indexOf(q, nameStart);
  if (at === nameStart && end - nameStart === q.length) return Fit.Name;
  if (at === nameStart) return Fit.NameStart;
  if (at >= 0 && at + q.length <= end) return Fit.InName;
  if (path.includes(q)) return Fit.InPath;
  return scattered(path, q, nameStart) ? Fit.ScatteredInName : Fit.ScatteredInPath;
}

/** Whether `q`'s characters appear in order in `path` from `from` on. */
function scattered(path: string, q: string, from: number): boolean {
  let at = from - 1;
  for (let i = 0; i < q.length; i++) {
    at = path.indexOf(q[i] as string, at + 1);
    if (at < 0) return false;
  }
  return true;
}

/** Whether `a` ranks before `b`. */
function before(a: Ranked, b: Ranked, paths: readonly string[]): boolean {
  if (a.fit !== b.fit) return a.fit < b.fit;
  const [pa, pb] = [paths[a.index] as string, paths[b.index] as string];
  if (pa.length !== pb.length) return pa.length < pb.length;
  return pa < pb;
}

/** Inserts `entry` into `best` (kept sorted, at most `limit` long) if it ranks among them. */
function keepBest(best: Ranked[], entry: Ranked, limit: number, paths: readonly string[]): void {
  if (best.length === limit && !before(entry, best[limit - 1] as Ranked, paths)) return;
  let at = best.length;
  while (at > 0 && before(entry, best[at - 1] as Ranked, paths)) at--;
  best.splice(at, 0, entry);
  if (best.length > limit) best.pop();
}
