import { Code, type KindName } from "pulumi-irv/sdk";
import { BUILT_IN_ROLES, Caller, Level, type Principal } from "../auth/index.js";
import {
  ApiFault,
  ancestorUid,
  type Clock,
  failedPrecondition,
  formatTimestamp,
  invalidArgument,
  newChildUid,
  newRoleUid,
  newRootUid,
  nextUpdateTime,
  notFound,
  permissionDenied,
  unauthenticated,
} from "../core/index.js";
import { type PageTokens, parseListParams, type QueryValues, queryKey } from "../lists/index.js";
import {
  countRows,
  type Database,
  type ListQuery,
  type ResourceRow,
  ResourceTable,
  readPage,
  sortValue,
} from "../store/index.js";
import { checkLooseFields } from "./field-limits.js";
import { KIND_RULES, type KindRules } from "./kind-rules.js";
import { hydrateBinding, type StoredBinding } from "./role-bindings.js";
import { applyPaths, maskPaths } from "./update-mask.js";
import { requireObject, throwZodViolations } from "./violations.js";

/**
 * What the service is built from.
 *
 * @example
 * const service = new ResourceService({
 *   db: new Database(undefined),
 *   clock: Date.now,
 *   pageTokens: new PageTokens(randomBytes(32), Date.now),
 *   orgUid: "0123456789abcdef0123456789abcdef01234567",
 * });
 */
export interface ResourceServiceOptions {
  db: Database;
  clock: Clock;
  pageTokens: PageTokens;
  /** Uid of the root organization to create when the database has none (random by default). */
  orgUid?: string | undefined;
}

/**
 * How many blocking children a refused delete lists (the message says how many more).
 *
 * @example
 * violations.length <= MAX_LISTED_VIOLATIONS; // true
 */
export const MAX_LISTED_VIOLATIONS = 20;

const OUTPUT_ONLY = ["uid", "createTime", "updateTime"];
// Key order of the JSON the emulator writes: identity first, timestamps last, like the spec's tables.
const KEY_ORDER = ["uid", "name", "description", "claimMatch", "resourceLimits", "verified", "lastSeenTime"];
const TAIL = ["createTime", "updateTime"];

/**
 * The v2beta1 API over the resource table: permission checks (before any existence check, so a
 * denied caller learns nothing), validation, the rules of the spec (sibling names, non-empty group
 * deletes, identity delete cascades, field masks) and the list machinery. Every write is one
 * transaction. Methods return the JSON to answer, or throw {@link ApiFault}.
 *
 * @example
 * const service = new ResourceService({ db, clock: Date.now, pageTokens });
 * const json = service.create(service.admin, "groups", service.orgUid, { name: "platform" });
 */
export class ResourceService {
  readonly table: ResourceTable;
  readonly orgUid: string;
  /** The admin token's caller: owner of the root organization. */
  readonly admin: Caller;
  private readonly clock: Clock;
  private readonly pageTokens: PageTokens;
  private readonly db: Database;
  private readonly builtInLevels = new Map<string, Level>();
  private readonly callers = new Map<string, { generation: number; caller: Caller }>();
  private readonly counts = new Map<string, { generation: number; n: number }>();

  constructor(o: ResourceServiceOptions) {
    this.db = o.db;
    this.clock = o.clock;
    this.pageTokens = o.pageTokens;
    this.table = new ResourceTable(o.db);
    const stored = o.db.getMeta("orgUid");
    if (stored !== undefined && o.orgUid !== undefined && stored !== o.orgUid) {
      throw new Error(`the database belongs to organization ${stored}, not ${o.orgUid}`);
    }
    this.orgUid = stored ?? o.orgUid ?? newRootUid();
    o.db.transaction(() => this.ensureOrganization());
    this.admin = new Caller("admin", this.orgUid, [{ scope: this.orgUid, level: Level.ADMIN }]);
  }

  private ensureOrganization(): void {
    if (this.db.getMeta("orgUid") === undefined) {
      this.db.setMeta("orgUid", this.orgUid);
      this.writeNew(KIND_RULES.groups, this.orgUid, "", {
        name: "org",
        description: "Root organization of the IRV emulator",
      });
    }
    for (const role of BUILT_IN_ROLES) {
      const uid =
        this.table.findByName("roles", "", role.name) ??
        this.insert(KIND_RULES.roles, "", { name: role.name, description: role.description }).uid;
      this.builtInLevels.set(uid, role.level);
    }
  }

  /**
   * The caller behind an authenticated principal. An identity's grants come from its role bindings
   * (cached until the next write); a token of an identity deleted since is refused with code 16.
   *
   * @example
   * const caller = service.callerOf({ kind: "identity", uid });
   */
  callerOf(principal: Principal): Caller {
    if (principal.kind === "admin") return this.admin;
    const cached = this.callers.get(principal.uid);
    if (cached?.generation === this.table.generation) return cached.caller;
    if (this.table.get("identities", principal.uid) === undefined) {
      throw unauthenticated("the identity of this token no longer exists");
    }
    const grants = this.table.referringToIdentity(principal.uid).map((b) => ({
      scope: b.parentUid,
      // Custom roles carry no permissions: the spec does not show any (see contract decisions).
      level: this.builtInLevels.get(b.refRole ?? "") ?? Level.NONE,
    }));
    const caller = new Caller(`identity ${principal.uid}`, this.orgUid, grants);
    if (this.callers.size > 1000) this.callers.clear();
    this.callers.set(principal.uid, { generation: this.table.generation, caller });
    return caller;
  }

  // --- List and Get -------------------------------------------------------------------------------

  /**
   * A List (AIP-132/158): filters, order, keyset page tokens, skip, totalCount. Only what the
   * caller may read is listed (roles: everything).
   *
   * @example
   * service.list(caller, "groups", { "uidp.children_of": orgUid, page_size: "10" });
   */
  list(caller: Caller, kind: KindName, query: QueryValues): string {
    const rules = KIND_RULES[kind];
    const p = parseListParams(query);
    const key = queryKey(kind, p);
    const after = p.pageToken === undefined ? undefined : this.pageTokens.read(p.pageToken, key);
    const roles = kind === "roles";
    const q: ListQuery = {
      kind,
      // Roles are organization-wide: usable in every group, so scoping filters keep them all.
      childrenOf: roles ? undefined : p.childrenOf,
      descendantsOf: roles ? undefined : p.descendantsOf,
      name: p.name,
      sort: p.sort,
      descending: p.descending,
      readableScopes: roles ? undefined : caller.readableScopes,
    };
    const total = this.count(q);
    // A subtree holding a quarter or more of its kind is read in index order (see readPage).
    const walkOrder =
      q.descendantsOf !== undefined &&
      total * 4 >= this.count({ kind, sort: p.sort, descending: p.descending });
    const rows = readPage(this.db, { ...q, after, offset: p.skip, limit: p.pageSize + 1, walkOrder });
    const page = rows.slice(0, p.pageSize);
    const last = page[page.length - 1];
    const next =
      rows.length > p.pageSize && last !== undefined
        ? this.pageTokens.issue(key, [sortValue(last, p.sort), last.uid])
        : undefined;
    let skipped = p.skip;
    if (p.skip > 0 && rows.length === 0) {
      // Fewer rows than `skip` remained: report how many were really skipped.
      skipped =
        after === undefined
          ? Math.min(p.skip, total)
          : readPage(this.db, { ...q, after, offset: 0, limit: p.skip }).length;
    }
    const items = page.map((r) => this.output(rules, r)).join(",");
    return `{"${rules.spec.collection}":[${items}]${next === undefined ? "" : `,"nextPageToken":"${next}"`},"totalCount":"${total}","skipped":${skipped}}`;
  }

  private count(q: ListQuery): number {
    const key = JSON.stringify([q.kind, q.childrenOf, q.descendantsOf, q.name, q.readableScopes]);
    const hit = this.counts.get(key);
    if (hit?.generation === this.table.generation) return hit.n;
    const n = countRows(this.db, q);
    if (this.counts.size > 1000) this.counts.clear();
    this.counts.set(key, { generation: this.table.generation, n });
    return n;
  }

  /**
   * A Get by uid.
   *
   * @example
   * service.get(caller, "groups", uid);
   */
  get(caller: Caller, kind: KindName, uid: string): string {
    const rules = KIND_RULES[kind];
    if (kind !== "roles" && !caller.can(Level.READ, this.scopeOf(rules, uid))) {
      throw permissionDenied(`read ${rules.spec.singular} ${JSON.stringify(uid)}`);
    }
    const row = this.table.get(kind, uid);
    if (row === undefined) throw notFound(rules.spec.singular, uid);
    return this.output(rules, row);
  }

  /**
   * The v1 list of groups or repos (`{"items":[{id, name, createdAt, updatedAt, …}]}`), unpaged,
   * in creation order, optionally filtered by `id` (v1 had no Get).
   *
   * @example
   * service.listV1(caller, "groups", { id: uid });
   */
  listV1(caller: Caller, kind: "groups" | "repos", query: QueryValues): string {
    const id = query.id;
    let rows: ResourceRow[];
    if (typeof id === "string" && id !== "") {
      const row = this.table.get(kind, id);
      rows = row !== undefined && caller.can(Level.READ, row.scopeUid) ? [row] : [];
    } else {
      rows = readPage(this.db, {
        kind,
        sort: "created_at",
        descending: false,
        readableScopes: caller.readableScopes,
        offset: 0,
        limit: -1,
      });
    }
    const items = rows.map((r) => {
      const { uid, createTime, updateTime, ...rest } = JSON.parse(r.data) as Record<string, unknown>;
      return JSON.stringify({ id: uid, ...rest, createdAt: createTime, updatedAt: updateTime ?? createTime });
    });
    return `{"items":[${items.join(",")}]}`;
  }

  // --- Create ------------------------------------------------------------------------------------

  /**
   * A Create under a parent group (roles: `parentUid` undefined, organization-wide).
   *
   * @example
   * service.create(caller, "identities", groupUid, { name: "ci", claimMatch: { issuer, subject } });
   */
  create(caller: Caller, kind: KindName, parentUid: string | undefined, body: unknown): string {
    const rules = KIND_RULES[kind];
    const scope = parentUid ?? this.orgUid;
    if (!caller.can(rules.writeLevel, scope)) {
      throw permissionDenied(
        kind === "roles"
          ? "create custom roles"
          : `create ${rules.spec.singular} resources in ${JSON.stringify(scope)}`,
      );
    }
    const create = rules.spec.create;
    if (create === undefined)
      throw new ApiFault(Code.UNIMPLEMENTED, `${rules.spec.singular} resources are read-only`);
    const parsed = create.safeParse(requireObject(body));
    if (!parsed.success) throwZodViolations(parsed.error, rules.hints);
    const fields = parsed.data as Record<string, unknown>;
    if (rules.spec.loose === true) checkLooseFields(fields);
    return this.db.transaction(() => this.output(rules, this.insert(rules, parentUid ?? "", fields)));
  }

  /**
   * Inserts a resource without permission checks (fixtures and the control API): checks the parent,
   * the references of a role binding and the sibling name, then writes the row. `uid` may be given
   * (fixtures); it must be a child uid of the parent.
   *
   * @example
   * service.insert(KIND_RULES.repos, groupUid, { name: "app" });
   */
  insert(rules: KindRules, parentUid: string, fields: Record<string, unknown>, uid?: string): ResourceRow {
    if (rules.parentKind !== undefined && this.table.get(rules.parentKind, parentUid) === undefined) {
      throw notFound(KIND_RULES[rules.parentKind].spec.singular, parentUid);
    }
    if (uid !== undefined) {
      if (!(uid.startsWith(`${parentUid}/`) && /^[0-9a-f]{16}$/.test(uid.slice(parentUid.length + 1)))) {
        throw invalidArgument([
          { field: "uid", description: `must be ${parentUid}/ followed by 16 hex digits` },
        ]);
      }
      if (this.table.get(rules.name, uid) !== undefined) {
        throw new ApiFault(
          Code.ALREADY_EXISTS,
          `${rules.spec.singular} ${JSON.stringify(uid)} already exists`,
        );
      }
    }
    if (rules.name === "roleBindings") {
      const { identityUid, roleUid } = fields as { identityUid: string; roleUid: string };
      this.checkBinding(parentUid, identityUid, roleUid, undefined);
    } else {
      this.checkSiblingName(rules, parentUid, String(fields.name), undefined);
    }
    const newUid = uid ?? (rules.name === "roles" ? newRoleUid() : newChildUid(parentUid));
    return this.writeNew(rules, newUid, parentUid, fields);
  }

  // Builds the stored form of a new resource (service-set fields, timestamps, key order) and
  // writes its row. No checks: callers have made them.
  private writeNew(
    rules: KindRules,
    uid: string,
    parentUid: string,
    fields: Record<string, unknown>,
  ): ResourceRow {
    const t = formatTimestamp(this.clock());
    let data: Record<string, unknown>;
    let refIdentity: string | null = null;
    let refRole: string | null = null;
    if (rules.name === "roleBindings") {
      const { identityUid, roleUid } = fields as { identityUid: string; roleUid: string };
      refIdentity = identityUid;
      refRole = roleUid;
      data = { uid, identityUid, roleUid, groupUid: parentUid, createTime: t } satisfies StoredBinding;
    } else {
      const own = Object.fromEntries(Object.entries(fields).filter(([k]) => !OUTPUT_ONLY.includes(k)));
      const extra =
        rules.name === "groups"
          ? { resourceLimits: {}, verified: false }
          : rules.name === "identities"
            ? { lastSeenTime: t }
            : {};
      data = orderKeys({ uid, ...own, ...extra, createTime: t, updateTime: t });
    }
    const row = {
      kind: rules.name,
      uid,
      parentUid,
      scopeUid: rules.name === "roles" ? "" : this.scopeOf(rules, uid),
      name: typeof fields.name === "string" ? fields.name : "",
      refIdentity,
      refRole,
      data: JSON.stringify(data),
    };
    return { seq: this.table.insert(row), ...row };
  }

  // --- Update ------------------------------------------------------------------------------------

  /**
   * An Update (AIP-134) with an optional `updateMask`; answers the whole resource.
   *
   * @example
   * service.update(caller, "groups", uid, { description: "new" }, "description");
   */
  update(caller: Caller, kind: KindName, uid: string, body: unknown, updateMask: string | undefined): string {
    const rules = KIND_RULES[kind];
    this.checkWrite(caller, rules, uid, "update");
    const fields = requireObject(body);
    return this.db.transaction(() => {
      const row = this.table.get(kind, uid);
      if (row === undefined) throw notFound(rules.spec.singular, uid);
      const current = JSON.parse(row.data) as Record<string, unknown>;
      const paths = maskPaths(rules, updateMask, fields, current);
      const next = applyPaths(rules, current, fields, paths);
      if (rules.validate !== undefined) {
        const view =
          rules.spec.loose === true
            ? Object.fromEntries(Object.entries(next).filter(([k]) => !OUTPUT_ONLY.includes(k)))
            : Object.fromEntries(rules.spec.mutable.filter((p) => !p.includes(".")).map((p) => [p, next[p]]));
        const checked = rules.validate.safeParse(view);
        if (!checked.success) throwZodViolations(checked.error, rules.hints);
      }
      if (rules.spec.loose === true) checkLooseFields(next);
      let refRole = row.refRole;
      if (kind === "roleBindings") {
        const b = next as unknown as StoredBinding;
        if (b.roleUid !== row.refRole) this.checkBinding(b.groupUid, b.identityUid, b.roleUid, uid);
        refRole = b.roleUid;
      } else {
        if (next.name !== row.name) this.checkSiblingName(rules, row.parentUid, String(next.name), uid);
        next.updateTime = nextUpdateTime(current.updateTime as string | undefined, this.clock());
      }
      const data = kind === "roleBindings" ? next : orderKeys(next);
      const updated = {
        ...row,
        name: typeof next.name === "string" ? next.name : "",
        refRole,
        data: JSON.stringify(data),
      };
      this.table.update(kind, uid, updated);
      return this.output(rules, updated);
    });
  }

  // --- Delete ------------------------------------------------------------------------------------

  /**
   * A Delete. A group with any child refuses (code 9, one RESOURCE_NOT_EMPTY violation per child,
   * at most {@link MAX_LISTED_VIOLATIONS}); an identity takes its role bindings with it; a custom
   * role still bound refuses (code 9, RESOURCE_IN_USE).
   *
   * @example
   * service.delete(caller, "identities", uid);
   */
  delete(caller: Caller, kind: KindName, uid: string): void {
    const rules = KIND_RULES[kind];
    if (kind === "groups" && uid === this.orgUid) throw permissionDenied("delete the root organization");
    this.checkWrite(caller, rules, uid, "delete");
    this.db.transaction(() => {
      const row = this.table.get(kind, uid);
      if (row === undefined) throw notFound(rules.spec.singular, uid);
      if (kind === "groups") this.refuseNonEmpty(uid);
      if (kind === "roles") this.refuseBoundRole(uid);
      if (kind === "identities") this.table.deleteReferringToIdentity(uid);
      if (kind === "repos")
        for (const tag of this.table.children(uid, -1)) this.table.delete(tag.kind, tag.uid);
      this.table.delete(kind, uid);
    });
  }

  private refuseNonEmpty(uid: string): void {
    const children = this.table.children(uid, MAX_LISTED_VIOLATIONS);
    if (children.length === 0) return;
    const total = this.table.countChildren(uid);
    const more = total - children.length;
    throw failedPrecondition(
      `group ${JSON.stringify(uid)} is not empty: it has ${total} direct child resource${total === 1 ? "" : "s"}` +
        `${more > 0 ? ` (${children.length} listed, ${more} more)` : ""}; delete them first`,
      children.map((c) => ({
        type: "RESOURCE_NOT_EMPTY",
        subject: c.uid,
        description: `group has child ${this.describe(c)} (uid ${c.uid})`,
      })),
    );
  }

  private refuseBoundRole(uid: string): void {
    const bindings = this.table.referringToRole(uid, MAX_LISTED_VIOLATIONS + 1);
    if (bindings.length === 0) return;
    const shown = bindings.slice(0, MAX_LISTED_VIOLATIONS);
    throw failedPrecondition(
      `role ${JSON.stringify(uid)} is still bound${bindings.length > shown.length ? " (more bindings than listed)" : ""}; delete its role bindings first`,
      shown.map((b) => ({
        type: "RESOURCE_IN_USE",
        subject: b.uid,
        description: `role is used by role binding ${b.uid} in group ${b.parentUid}`,
      })),
    );
  }

  private describe(row: ResourceRow): string {
    const singular = KIND_RULES[row.kind as KindName]?.spec.singular ?? row.kind;
    if (row.kind !== "roleBindings") return `${singular} ${JSON.stringify(row.name)}`;
    const roleName = this.table.get("roles", row.refRole ?? "")?.name ?? row.refRole;
    return `${singular} of role ${JSON.stringify(roleName)} to identity ${row.refIdentity}`;
  }

  // --- Service-side updates --------------------------------------------------------------------

  /**
   * The claimMatch of an identity (for the STS), or undefined.
   *
   * @example
   * service.claimMatchOf(uid)?.subject;
   */
  claimMatchOf(uid: string): { issuer: string; subject: string } | undefined {
    const row = this.table.get("identities", uid);
    return row === undefined
      ? undefined
      : (JSON.parse(row.data) as { claimMatch: { issuer: string; subject: string } }).claimMatch;
  }

  /**
   * Sets an identity's `lastSeenTime` to now (a successful exchange); `updateTime` stays, the
   * identity's own fields did not change.
   *
   * @example
   * service.markSeen(uid);
   */
  markSeen(uid: string): void {
    this.db.transaction(() => {
      const row = this.table.get("identities", uid);
      if (row === undefined) return;
      const data = JSON.parse(row.data) as Record<string, unknown>;
      data.lastSeenTime = formatTimestamp(Math.max(this.clock(), Date.parse(String(data.lastSeenTime)) || 0));
      this.table.updateData("identities", uid, JSON.stringify(data));
    });
  }

  // --- Helpers -----------------------------------------------------------------------------------

  /**
   * The group whose permissions govern a uid of a kind (derived from the uid alone, so permission
   * is decided before existence). A uid too shallow for its kind governs itself, which only a
   * root-level grant covers.
   *
   * @example
   * service.scopeOf(KIND_RULES.tags, "org/group/repo/tag"); // "org/group"
   */
  scopeOf(rules: KindRules, uid: string): string {
    if (rules.scopeDepth === undefined) return this.orgUid;
    if (rules.scopeDepth === 0) return uid;
    return ancestorUid(uid, rules.scopeDepth) ?? uid;
  }

  private checkWrite(caller: Caller, rules: KindRules, uid: string, verb: string): void {
    if (rules.name === "roles") {
      if (this.builtInLevels.has(uid)) throw permissionDenied(`${verb} built-in roles`);
    }
    if (!caller.can(rules.writeLevel, this.scopeOf(rules, uid))) {
      throw permissionDenied(`${verb} ${rules.spec.singular} ${JSON.stringify(uid)}`);
    }
  }

  private checkSiblingName(
    rules: KindRules,
    parentUid: string,
    name: string,
    self: string | undefined,
  ): void {
    if (!rules.uniqueNames) return;
    const clash = this.table.findByName(rules.name, parentUid, name);
    if (clash !== undefined && clash !== self) {
      throw new ApiFault(
        Code.ALREADY_EXISTS,
        `a ${rules.spec.singular} named ${JSON.stringify(name)} already exists ${rules.name === "roles" ? "" : `in ${JSON.stringify(parentUid)} `}(uid ${clash})`.replace(
          "  ",
          " ",
        ),
      );
    }
  }

  // A binding's identity must live in the binding's group or one of its ancestors: a binding
  // grants rights below where the identity is defined, never beside it.
  private checkBinding(
    groupUid: string,
    identityUid: string,
    roleUid: string,
    self: string | undefined,
  ): void {
    const identityGroup = ancestorUid(identityUid, 1);
    if (
      identityGroup === undefined ||
      !(groupUid === identityGroup || groupUid.startsWith(`${identityGroup}/`))
    ) {
      throw invalidArgument([
        {
          field: "identityUid",
          description: "must be an identity of the binding's group or of one of its ancestors",
        },
      ]);
    }
    if (this.table.get("identities", identityUid) === undefined) {
      throw invalidArgument([
        { field: "identityUid", description: `no identity has the uid ${JSON.stringify(identityUid)}` },
      ]);
    }
    if (this.table.get("roles", roleUid) === undefined) {
      throw invalidArgument([
        { field: "roleUid", description: `no role has the uid ${JSON.stringify(roleUid)}` },
      ]);
    }
    const clash = this.table
      .referringToIdentity(identityUid)
      .find((b) => b.parentUid === groupUid && b.refRole === roleUid && b.uid !== self);
    if (clash !== undefined) {
      throw new ApiFault(
        Code.ALREADY_EXISTS,
        `identity ${JSON.stringify(identityUid)} already has role ${JSON.stringify(roleUid)} in group ${JSON.stringify(groupUid)} (binding ${clash.uid})`,
      );
    }
  }

  private output(rules: KindRules, row: ResourceRow): string {
    return rules.name === "roleBindings" ? hydrateBinding(this.table, row) : row.data;
  }
}

function orderKeys(obj: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of KEY_ORDER) if (k in obj) out[k] = obj[k];
  for (const [k, v] of Object.entries(obj)) if (!KEY_ORDER.includes(k) && !TAIL.includes(k)) out[k] = v;
  for (const k of TAIL) if (k in obj) out[k] = obj[k];
  return out;
}
