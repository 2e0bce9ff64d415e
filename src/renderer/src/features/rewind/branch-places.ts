import type { BranchPoint } from "../../../../shared/branches";
import type { SessionState } from "../../../../shared/host-state";

/** Where each branch point is drawn: before one of the person's messages (by transcript item id), or at the end. */
export interface BranchPlaces {
  /** The point drawn before the person's message with this item id. */
  before: Map<string, BranchPoint>;
  /** The point after the last of the person's messages shown (a rewind's place, before anything was sent). */
  atEnd?: BranchPoint;
}

/** Places the chat's branch points: a point with `before` n goes before the person's (n+1)th message shown. */
export function branchPlaces(session: Pick<SessionState, "transcript" | "branches">): BranchPlaces {
  const places: BranchPlaces = { before: new Map() };
  const points = session.branches ?? [];
  if (points.length === 0) return places;
  const users = session.transcript.filter((item) => item.kind === "user");
  for (const point of points) {
    const next = users[point.before];
    if (next) places.before.set(next.id, point);
    else places.atEnd = point;
  }
  return places;
}
