import type { Capability } from "pulumi-irv/sdk";
import { CAPABILITIES, fromWireCapability, isWireCapability } from "pulumi-irv/sdk";
import type { Principal } from "../auth/index.js";
import { Caller } from "../auth/index.js";
import type { Clock } from "../core/index.js";
import {
  ancestorUid,
  formatTimestamp,
  isSelfOrDescendant,
  newRootUid,
  permissionDenied,
  unauthenticated,
} from "../core/index.js";
import type { PageTokens } from "../lists/index.js";
import type { Database } from "../store/index.js";
import { ResourceTable } from "../store/index.js";
import type { KindContext } from "./kind-context.js";
import type { KindRules } from "./kind-rules.js";
import { capabilitiesFor, capabilityFor } from "./kind-rules.js";

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
 * The state the list, write and delete parts of the service share, and the rules they all apply:
 * who the caller is, which group governs a uid, what a caller may see of a row.
 *
 * @example
 * const core = new ServiceCore(options);
 * core.authorize(caller, KIND_RULES.groups, "update", uid);
 */
export class ServiceCore implements KindContext {
  readonly table: ResourceTable;
  readonly db: Database;
  readonly clock: Clock;
  readonly pageTokens: PageTokens;
  readonly orgUid: string;
  /** The admin token's caller: every capability on the root organization. */
  readonly admin: Caller;
  private readonly builtIns = new Map<string, readonly Capability[]>();
  private readonly callers = new Map<string, { generation: number; caller: Caller }>();

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
    this.admin = new Caller("admin", this.orgUid, [
      { scope: this.orgUid, capabilities: new Set(CAPABILITIES) },
    ]);
  }

  /**
   * Records the built-in roles (their rows are created by the service at start) with their current
   * capability sets, so that a database written by an older emulator gets them too.
   *
   * @example
   * core.registerBuiltIn(uid, ["groups.list"]);
   */
  registerBuiltIn(uid: string, capabilities: readonly Capability[]): void {
    this.builtIns.set(uid, capabilities);
  }

  roleCapabilities(roleUid: string): readonly Capability[] | undefined {
    const builtIn = this.builtIns.get(roleUid);
    if (builtIn !== undefined) return builtIn;
    const data = this.table.data("roles", roleUid);
    if (data === undefined) return undefined;
    // Stored as the wire carries them (enum names); authorization works on display names.
    return ((JSON.parse(data) as { capabilities?: unknown[] }).capabilities ?? [])
      .filter(isWireCapability)
      .map((c) => fromWireCapability(c) as Capability);
  }

  isBuiltInRole(roleUid: string): boolean {
    return this.builtIns.has(roleUid);
  }

  /**
   * The caller behind an authenticated principal. An identity holds its role bindings' capabilities
   * (cached until the next write); a token of an identity deleted since is refused with code 16.
   *
   * @example
   * const caller = core.callerOf({ kind: "identity", uid });
   */
  callerOf(principal: Principal): Caller {
    if (principal.kind === "admin") return this.admin;
    const cached = this.callers.get(principal.uid);
    if (cached?.generation === this.table.generation) return cached.caller;
    if (!this.table.has("identities", principal.uid)) {
      throw unauthenticated("the identity of this token no longer exists");
    }
    const grants = this.table.referringToIdentity(principal.uid).map((b) => ({
      scope: b.parentUid,
      capabilities: new Set(this.roleCapabilities(b.refRole ?? "") ?? []),
    }));
    const caller = new Caller(`identity ${principal.uid}`, this.orgUid, grants);
    if (this.callers.size > 1000) this.callers.clear();
    this.callers.set(principal.uid, { generation: this.table.generation, caller });
    return caller;
  }

  /**
   * The group whose capabilities govern a uid of a kind. Derived from the uid alone (so permission
   * is decided before existence), except for roles, whose flat uid says nothing: their row's group
   * (the root for built-in roles and unknown uids). A uid too shallow for its kind governs itself,
   * which only a root-level grant covers.
   *
   * @example
   * core.scopeOf(KIND_RULES.tags, "org/group/repo/tag"); // "org/group"
   */
  scopeOf(rules: KindRules, uid: string): string {
    if (rules.scopeDepth === undefined) return this.table.get(rules.name, uid)?.scopeUid || this.orgUid;
    if (rules.scopeDepth === 0) return uid;
    return ancestorUid(uid, rules.scopeDepth) ?? uid;
  }

  /**
   * Refuses (code 7) an operation the caller holds no capability for at the governing group.
   *
   * @example
   * core.authorize(caller, KIND_RULES.identities, "create", groupUid, groupUid);
   */
  authorize(
    caller: Caller,
    rules: KindRules,
    verb: "create" | "update" | "delete",
    uid: string,
    scope = this.scopeOf(rules, uid),
  ): void {
    const needed = capabilitiesFor(rules, verb);
    const lacking = caller.lacking(needed, scope);
    if (lacking.length > 0) {
      const what =
        verb === "create"
          ? `create ${rules.spec.singular} resources in ${JSON.stringify(scope)}`
          : `${verb} ${rules.spec.singular} ${JSON.stringify(uid)}`;
      // Say which capability is missing, and where (issue 34: a 403 named neither).
      throw permissionDenied(`${what}: it lacks ${lacking.join(" and ")} on group ${JSON.stringify(scope)}`);
    }
  }

  /**
   * Whether the caller may read a row's uid of a kind. A custom role is readable where it can be
   * bound: by whoever may list roles in its group, above it, or anywhere below it; built-in roles by
   * everyone.
   *
   * @example
   * if (!core.mayRead(caller, KIND_RULES.groups, uid)) throw permissionDenied(`read group ${uid}`);
   */
  mayRead(caller: Caller, rules: KindRules, uid: string): boolean {
    const cap = capabilityFor(rules, "list");
    if (rules.scopeDepth !== undefined) return caller.has(cap, this.scopeOf(rules, uid));
    const scope = this.table.get(rules.name, uid)?.scopeUid;
    if (scope === undefined || scope === "") return true;
    return caller.has(cap, scope) || (caller.scopesWith(cap) ?? []).some((s) => isSelfOrDescendant(s, scope));
  }

  /**
   * The wire form of a row's stored JSON for a caller: the kind's own output, or the stored JSON
   * without its write-only fields.
   *
   * @example
   * core.output(KIND_RULES.identityProviders, row.data, caller); // no oidc.clientSecret
   */
  output(rules: KindRules, stored: string, caller: Caller): string {
    if (rules.hooks.output !== undefined) return rules.hooks.output(this, caller, stored);
    if (rules.writeOnly.length === 0 && Object.keys(rules.unpopulated).length === 0) return stored;
    return JSON.stringify(this.outputObject(rules, stored, caller));
  }

  /**
   * Whether the wire form of a kind's rows is a function of the stored text alone: the kind has no
   * output hook (a hook may depend on the caller, as a role binding's identity does, or on other rows,
   * as its role's name does); write-only and unpopulated fields are the kind's, the same for every
   * row and caller. The gRPC transport keeps such rows' encodings by their text (issue 47).
   *
   * @example
   * core.outputIsStoredAlone(KIND_RULES.groups); // true
   * core.outputIsStoredAlone(KIND_RULES.roleBindings); // false
   */
  outputIsStoredAlone(rules: KindRules): boolean {
    return rules.hooks.output === undefined;
  }

  /**
   * The same wire form as {@link output}, as the object it is made from: what the gRPC transport
   * builds its messages from (it need not read JSON text back, issue 47).
   *
   * @example
   * core.outputObject(KIND_RULES.groups, row.data, caller).uid;
   */
  outputObject(rules: KindRules, stored: string, caller: Caller): Record<string, unknown> {
    if (rules.hooks.output !== undefined) {
      return JSON.parse(rules.hooks.output(this, caller, stored)) as Record<string, unknown>;
    }
    const data = JSON.parse(stored) as Record<string, unknown>;
    for (const path of rules.writeOnly) removePath(data, path.split("."));
    // Unset fields as grpc-gateway writes them ("" and null), where the stored row leaves them out.
    for (const [key, value] of Object.entries(rules.unpopulated)) setUnset(data, key.split("."), value);
    return data;
  }

  /**
   * The current time as the API writes it.
   *
   * @example
   * core.now(); // "2026-11-23T10:00:00.000Z"
   */
  now(): string {
    return formatTimestamp(this.clock());
  }
}

// Sets a dotted path left out of a stored row, within the objects present only.
function setUnset(obj: Record<string, unknown>, segments: string[], value: unknown): void {
  let cur: unknown = obj;
  for (const s of segments.slice(0, -1)) {
    if (cur === null || typeof cur !== "object" || !Object.hasOwn(cur, s)) return;
    cur = (cur as Record<string, unknown>)[s];
  }
  const last = segments.at(-1) as string;
  if (cur !== null && typeof cur === "object" && !Object.hasOwn(cur, last))
    (cur as Record<string, unknown>)[last] = value;
}

function removePath(obj: Record<string, unknown>, segments: string[]): void {
  let cur: unknown = obj;
  for (const s of segments.slice(0, -1)) {
    if (cur === null || typeof cur !== "object" || !Object.hasOwn(cur, s)) return;
    cur = (cur as Record<string, unknown>)[s];
  }
  if (cur !== null && typeof cur === "object")
    delete (cur as Record<string, unknown>)[segments.at(-1) as string];
}
