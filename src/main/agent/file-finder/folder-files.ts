import type { FoundFiles } from "../../../shared/host-state";
import type { HiddenFolders } from "../read-tools/hidden-folders";
import { listFolder } from "./folder-listing";
import { matchPaths, type Narrowed, type PathList, pathList } from "./path-match";

/** Matches the finder gives back for one query. */
export const FOUND_LIMIT = 50;
/** The most files it lists in one folder; a bigger folder is searched in part, and says so. */
export const LISTED_CAP = 1_000_000;
/** A listing younger than this is not taken again when the menu opens. */
const FRESH_MS = 2_000;

/** How a finder lists (the defaults but in tests). */
interface FinderOptions {
  cap?: number;
  freshMs?: number;
}

/** A folder's listing, made ready for matching, and the last query's narrowing over it. */
interface Listing {
  list: PathList;
  capped: boolean;
  takenAt: number;
  narrowed?: Narrowed;
}

/**
 * The chat's folder as the composer's `@` finder sees it: listed once as Pi's read tools see it (ignored
 * files and the hidden folders left out), then matched in memory at each key. Opening the menu again takes
 * a new listing in the background while the last one still answers, so files made meanwhile come in a key
 * later instead of the person waiting for a walk of the whole tree.
 */
export class FolderFiles {
  private listing: Listing | undefined;
  private taking: Promise<Listing> | undefined;

  constructor(
    private readonly root: string,
    private readonly hidden: HiddenFolders,
    private readonly options: FinderOptions = {},
  ) {}

  /** The best matches for `query`; `fresh` (the menu just opened) lists the folder again if it is not new. */
  async find(query: string, fresh = false): Promise<FoundFiles> {
    if (!this.listing) await this.take();
    else if (fresh && Date.now() - this.listing.takenAt >= (this.options.freshMs ?? FRESH_MS)) {
      // The last listing answers meanwhile; a failed walk leaves it in place.
      void this.take().catch(() => {});
    }
    const listing = this.listing as Listing;
    const { best, narrowed } = matchPaths(listing.list, query, FOUND_LIMIT, listing.narrowed);
    listing.narrowed = narrowed;
    const paths = best.map((index) => listing.list.paths[index] as string);
    return { paths, searched: listing.list.paths.length, capped: listing.capped };
  }

  /** Lists the folder (one walk at a time) and keeps the listing. */
  private take(): Promise<Listing> {
    this.taking ??= listFolder(this.root, this.hidden, this.options.cap ?? LISTED_CAP)
      .then(({ paths, capped }) => {
        this.listing = { list: pathList(paths), capped, takenAt: Date.now() };
        return this.listing;
      })
      .finally(() => {
        this.taking = undefined;
      });
    return this.taking;
  }
}
