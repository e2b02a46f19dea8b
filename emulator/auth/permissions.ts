import { isSelfOrDescendant } from "../core/index.js";

/**
 * What a role allows, as a level: each level includes the ones below it.
 * - `READ` (viewer): Get and List.
 * - `WRITE` (editor): also create, update, delete groups, identities and the loose IAM kinds.
 * - `ADMIN` (owner): also role bindings and custom roles.
 *
 * @example
 * Level.WRITE > Level.READ; // true
 */
export const Level = { NONE: 0, READ: 1, WRITE: 2, ADMIN: 3 } as const;
/**
 * A permission level.
 *
 * @example
 * const level: Level = caller.levelAt(groupUid);
 * if (level < Level.WRITE) throw permissionDenied(`update group ${groupUid}`);
 */
export type Level = (typeof Level)[keyof typeof Level];

/**
 * The built-in roles: name, level and the description that marks them as built-in.
 *
 * @example
 * BUILT_IN_ROLES.map((r) => r.name); // ["owner", "editor", "viewer"]
 */
export const BUILT_IN_ROLES = [
  {
    name: "owner",
    level: Level.ADMIN,
    description: "Built-in role: full access, including role bindings and custom roles.",
  },
  {
    name: "editor",
    level: Level.WRITE,
    description: "Built-in role: read and write groups, identities and other IAM resources.",
  },
  { name: "viewer", level: Level.READ, description: "Built-in role: read-only access." },
] as const;

/**
 * A level granted on a group and everything below it.
 *
 * @example
 * const grant: Grant = { scope: teamUid, level: Level.READ };
 * const caller = new Caller(`identity ${identityUid}`, orgUid, [grant]);
 */
export interface Grant {
  scope: string;
  level: Level;
}

/**
 * Who is calling and what they may do where. The admin token is owner of the root organization; an
 * identity has the grants of its role bindings. A grant on the root covers every uid, well-formed or
 * not, so that root-level callers get "not found" rather than "denied" for nonsense uids.
 *
 * @example
 * const caller = new Caller("admin", orgUid, [{ scope: orgUid, level: Level.ADMIN }]);
 * caller.can(Level.WRITE, `${orgUid}/0123456789abcdef`); // true
 */
export class Caller {
  /** Group uids the caller may read, or `undefined` when it may read the whole organization. */
  readonly readableScopes: readonly string[] | undefined;

  constructor(
    /** For messages: `admin` or `identity <uid>`. */
    readonly label: string,
    private readonly orgUid: string,
    private readonly grants: readonly Grant[],
  ) {
    const readable = grants.filter((g) => g.level >= Level.READ).map((g) => g.scope);
    this.readableScopes = readable.includes(orgUid)
      ? undefined
      : readable.filter((s) => !readable.some((o) => o !== s && isSelfOrDescendant(s, o)));
  }

  /**
   * The highest level the caller holds on `scopeUid` (through a grant on it or an ancestor).
   *
   * @example
   * caller.levelAt(groupUid) >= Level.READ;
   */
  levelAt(scopeUid: string): Level {
    let best: Level = Level.NONE;
    for (const g of this.grants) {
      if (g.level > best && (g.scope === this.orgUid || isSelfOrDescendant(scopeUid, g.scope)))
        best = g.level;
    }
    return best;
  }

  /**
   * Whether the caller holds at least `level` on `scopeUid`.
   *
   * @example
   * if (!caller.can(Level.ADMIN, groupUid)) throw permissionDenied("bind roles here");
   */
  can(level: Level, scopeUid: string): boolean {
    return this.levelAt(scopeUid) >= level;
  }
}
