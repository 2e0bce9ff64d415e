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
  /** Not worth knowing: it ranks below every match kept already. */
  Beaten: 6,
} as const;
type Fit = (typeof Fit)[keyof typeof Fit];

/** The paths matching one query, kept so the next, longer query looks only at them. */
export interface Narrowed {
  query: string;
  /** Indexes into the list of the paths it matched, in list order. */
  matches: Uint32Array;
}

/** A folder's paths, sorted, with what matching reads of each made once. */
export interface PathList {
  /** The paths in code-unit order (so among equal matches the first in the list is first by name). */
  paths: readonly string[];
  /** Each lower-cased. */
  lower: readonly string[];
  /** Where each one's file or folder name starts. */
  nameStarts: Uint32Array;
}

/** The list to match against, made once per listing. */
export function pathList(paths: readonly string[]): PathList {
  const sorted = [...paths].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const nameStarts = new Uint32Array(sorted.length);
  sorted.forEach((path, index) => {
    nameStarts[index] = path.lastIndexOf("/", path.length - 2) + 1;
  });
  return { paths: sorted, lower: sorted.map((path) => path.toLowerCase()), nameStarts };
}

/** A match's rank as one number, lower first: how the query sits, then the path's length. */
const rankOf = (fit: Fit, length: number) => fit * 0x100000 + Math.min(length, 0xfffff);

/**
 * The best `limit` paths of `list` for `query` (indexes into it, best first), and what narrows the next
 * query; `previous` (the last query's narrowing over the same list) is used when `query` extends it, since
 * a path that does not match a query cannot match it lengthened. Candidates are looked at in list order,
 * so a later one ranking equal to the worst kept is not better, and most are turned away by one number.
 */
export function matchPaths(
  list: PathList,
  query: string,
  limit: number,
  previous?: Narrowed,
): { best: number[]; narrowed: Narrowed } {
  const { lower, nameStarts } = list;
  const q = query.toLowerCase();
  const inPathOnly = q.includes("/");
  const candidates = previous && q.startsWith(previous.query) ? previous.matches : undefined;
  const count = candidates ? candidates.length : lower.length;
  const matched = new Uint32Array(count);
  let found = 0;
  const best: number[] = [];
  const ranks: number[] = [];
  // The worst rank kept once `limit` are kept; until then any match is kept.
  let worst = Number.MAX_SAFE_INTEGER;
  const from = candidates ?? identity(count);
  for (let k = 0; k < count; k++) {
    const index = from[k] as number;
    const path = lower[index] as string;
    if (!scattered(path, q, 0)) continue;
    matched[found++] = index;
    // How it fits matters only as far as a fit could still rank it above the worst kept, at its length.
    if (path.length >= worst) continue;
    const worth = Math.min(Fit.ScatteredInPath, Math.floor((worst - 1 - path.length) / 0x100000)) as Fit;
    const fit = inPathOnly
      ? worth >= Fit.InPath && path.includes(q)
        ? Fit.InPath
        : worth >= Fit.ScatteredInPath
          ? Fit.ScatteredInPath
          : Fit.Beaten
      : fitOf(path, q, nameStarts[index] as number, worth);
    const rank = rankOf(fit, path.length);
    if (fit === Fit.Beaten || rank >= worst) continue;
    let at = best.length;
    while (at > 0 && rank < (ranks[at - 1] as number)) at--;
    best.splice(at, 0, index);
    ranks.splice(at, 0, rank);
    if (best.length > limit) {
      best.pop();
      ranks.pop();
    }
    if (best.length === limit) worst = ranks[limit - 1] as number;
  }
  return { best, narrowed: { query: q, matches: matched.slice(0, found) } };
}

/** 0, 1, ... `count - 1`: every index of the list, when no earlier query narrows it. */
function identity(count: number): Uint32Array {
  const all = new Uint32Array(count);
  for (let i = 0; i < count; i++) all[i] = i;
  return all;
}

/**
 * How `q` sits in `path` (both lower-cased, its name from `nameStart`), given that it appears scattered in
 * it; `Beaten` once no fit up to `worth` holds (the poorer ones are not looked for).
 */
function fitOf(path: string, q: string, nameStart: number, worth: Fit): Fit {
  const end = path.charCodeAt(path.length - 1) === 47 ? path.length - 1 : path.length;
  const at = path.indexOf(q, nameStart);
  if (at === nameStart && end - nameStart === q.length) return Fit.Name;
  if (at === nameStart) return Fit.NameStart;
  if (at >= 0 && at + q.length <= end) return Fit.InName;
  if (worth < Fit.InPath) return Fit.Beaten;
  if (path.includes(q)) return Fit.InPath;
  if (worth < Fit.ScatteredInName) return Fit.Beaten;
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
