import type { KindName } from "pulumi-irv/sdk";
import { Code } from "pulumi-irv/sdk";
import type { Caller } from "../auth/index.js";
import {
  ApiFault,
  formatTimestamp,
  invalidArgument,
  newChildUid,
  newRoleUid,
  nextUpdateTime,
  notFound,
} from "../core/index.js";
import type { ResourceRow } from "../store/index.js";
import { freeFormViolations } from "./field-limits.js";
import type { KindRules } from "./kind-rules.js";
import { KIND_RULES } from "./kind-rules.js";
import type { ServiceCore } from "./service-core.js";
import { applyPaths, maskPaths, refuseNotUpdatable, refuseUnknownKeys } from "./update-mask.js";
import { requireObject, throwZodViolations } from "./violations.js";

const OUTPUT_ONLY = ["uid", "createTime", "updateTime"];
// Key order of the JSON the emulator writes: identity first, timestamps last, like the spec's tables.
const KEY_ORDER = [
  "uid",
  "name",
  "description",
  "parentUid",
  "capabilities",
  "claimMatch",
  "resourceLimits",
  "verified",
  "lastSeenTime",
];
const TAIL = ["createTime", "updateTime"];

function orderKeys(obj: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of KEY_ORDER) if (Object.hasOwn(obj, k)) out[k] = obj[k];
  for (const [k, v] of Object.entries(obj)) if (!KEY_ORDER.includes(k) && !TAIL.includes(k)) out[k] = v;
  for (const k of TAIL) if (Object.hasOwn(obj, k)) out[k] = obj[k];
  return out;
}

// A key of a create body the kind's create schema does not know: code 3 naming it (with the kind's
// hint, e.g. a repo's syncConfig for sync_config), where the gateway would have dropped it.
function refuseUnknownCreateKeys(rules: KindRules, create: unknown, body: Record<string, unknown>): void {
  const shape = (create as { shape?: Record<string, unknown> }).shape;
  if (shape === undefined) return;
  const unknown = Object.keys(body).filter((k) => !Object.hasOwn(shape, k));
  if (unknown.length === 0) return;
  throw invalidArgument(
    unknown.map((k) => ({
      field: k,
      description: `is not a field of a ${rules.spec.singular} create (known: ${Object.keys(shape).join(", ")})${rules.hints[k] === undefined ? "" : `; ${rules.hints[k]}`}`,
    })),
  );
}

// Free-form maps and lists of a kind stay within the free-form limits (h10's limiter).
function checkFreeForm(rules: KindRules, fields: Record<string, unknown>): void {
  const violations = rules.freeForm.flatMap((path) => {
    let value: unknown = fields;
    for (const s of path.split(".")) {
      value =
        value !== null && typeof value === "object" && Object.hasOwn(value, s)
          ? (value as Record<string, unknown>)[s]
          : undefined;
    }
    return value === undefined ? [] : freeFormViolations(path, value);
  });
  if (violations.length > 0) throw invalidArgument(violations);
}

/**
 * A new row and the once-only fields its create answers with (never stored).
 *
 * @example
 * const { row, once } = writes.insertAs(caller, KIND_RULES.groupInvites, groupUid, fields);
 */
export interface Inserted {
  row: ResourceRow;
  once: Record<string, unknown>;
}

/**
 * The write part of the API: Create and Update (AIP-133/134), each one transaction, with the common
 * rules (capability, parent, validation, sibling names, masks) and the kind's own hooks.
 *
 * @example
 * const writes = new ResourceWrites(core);
 * writes.create(caller, "groups", orgUid, { name: "platform" });
 */
export class ResourceWrites {
  constructor(private readonly core: ServiceCore) {}

  /**
   * A Create under a parent group.
   *
   * @example
   * writes.create(caller, "identities", groupUid, { name: "ci", claimMatch: { issuer, subject } });
   */
  create(caller: Caller, kind: KindName, parentUid: string, body: unknown): string {
    const rules = KIND_RULES[kind];
    // The gateway decodes the body before the service runs: a body that is not an object is code 3
    // whoever sends it. Unknown keys are dropped (protojson DiscardUnknown), so they refuse nothing.
    const object = requireObject(body);
    this.core.authorize(caller, rules, "create", parentUid, parentUid);
    const create = rules.spec.create;
    if (create === undefined || !rules.writes.includes("create"))
      throw new ApiFault(Code.INVALID_ARGUMENT, `${rules.spec.singular} resources are read-only`);
    const prepared = rules.hooks.prepare?.(object) ?? object;
    if (rules.strictCreate) refuseUnknownCreateKeys(rules, create, prepared);
    const parsed = create.safeParse(prepared);
    if (!parsed.success) throwZodViolations(parsed.error, rules.hints);
    const fields = parsed.data as Record<string, unknown>;
    checkFreeForm(rules, fields);
    return this.core.db.transaction(() => {
      if (rules.upsertByName) {
        const same = this.core.table.findByName(rules.name, parentUid, String(fields[rules.nameField]));
        if (same !== undefined) return this.replace(caller, rules, same, parentUid, fields);
      }
      const { row, once } = this.insertAs(caller, rules, parentUid, fields);
      const out = this.core.output(rules, row.data, caller);
      return Object.keys(once).length === 0
        ? out
        : JSON.stringify(orderKeys({ ...JSON.parse(out), ...once }));
    });
  }

  // A create of a name the parent has, for a kind whose create is an upsert (tags): the resource gets
  // the new fields and keeps its uid; its updateTime moves on.
  private replace(
    caller: Caller,
    rules: KindRules,
    uid: string,
    parentUid: string,
    fields: Record<string, unknown>,
  ): string {
    const row = this.core.table.get(rules.name, uid) as ResourceRow;
    const current = JSON.parse(row.data) as Record<string, unknown>;
    const at = this.core.clock();
    const checked = rules.hooks.beforeCreate?.(this.core, { caller, parentUid, fields, now: at }) ?? fields;
    const now = nextUpdateTime(current.updateTime as string | undefined, at);
    const data = rules.hooks.stored?.(uid, parentUid, checked, now) ?? {
      ...current,
      ...checked,
      updateTime: now,
    };
    const updated = { ...row, data: JSON.stringify(data) };
    this.core.table.update(rules.name, uid, updated);
    return this.core.output(rules, updated.data, caller);
  }

  /**
   * Inserts a resource on behalf of `caller` without the capability check of Create (fixtures and
   * the control API use the admin): checks the parent, the kind's rules and the sibling name, then
   * writes the row. `uid` may be given (fixtures); it must be a child uid of the parent.
   *
   * @example
   * writes.insertAs(core.admin, KIND_RULES.repos, groupUid, { name: "app" });
   */
  insertAs(
    caller: Caller,
    rules: KindRules,
    parentUid: string,
    fields: Record<string, unknown>,
    uid?: string,
  ): Inserted {
    const table = this.core.table;
    if (!table.has(rules.parentKind, parentUid)) {
      throw notFound(KIND_RULES[rules.parentKind].spec.singular, parentUid);
    }
    if (rules.uidIsParent) {
      // One per group, named by the group's uid (account associations).
      if (uid !== undefined && uid !== parentUid) {
        throw invalidArgument([{ field: "uid", description: `must be the group's uid ${parentUid}` }]);
      }
      if (table.has(rules.name, parentUid)) {
        throw new ApiFault(
          Code.ALREADY_EXISTS,
          `group ${JSON.stringify(parentUid)} already has its ${rules.spec.singular} (uid ${parentUid}); update it instead`,
        );
      }
    } else if (uid !== undefined) {
      if (!(uid.startsWith(`${parentUid}/`) && /^[0-9a-f]{16}$/.test(uid.slice(parentUid.length + 1)))) {
        throw invalidArgument([
          { field: "uid", description: `must be ${parentUid}/ followed by 16 hex digits` },
        ]);
      }
      if (table.has(rules.name, uid)) {
        throw new ApiFault(
          Code.ALREADY_EXISTS,
          `${rules.spec.singular} ${JSON.stringify(uid)} already exists`,
        );
      }
    }
    // One clock reading for the whole create: the hooks' times (a sync's expiration) count from
    // the createTime itself.
    const at = this.core.clock();
    const checked = rules.hooks.beforeCreate?.(this.core, { caller, parentUid, fields, now: at }) ?? fields;
    this.checkSiblingName(rules, parentUid, checked[rules.nameField], undefined);
    const newUid = rules.uidIsParent
      ? parentUid
      : (uid ?? (rules.scopeDepth === undefined ? newRoleUid() : newChildUid(parentUid)));
    return this.writeNew(rules, newUid, parentUid, checked, at);
  }

  /**
   * Builds the stored form of a new resource (service-set fields, timestamps, key order) and writes
   * its row, created at `at` (ms; default: the clock now). No checks: callers have made them.
   *
   * @example
   * writes.writeNew(KIND_RULES.roles, newRoleUid(), "", { name: "viewer", capabilities });
   */
  writeNew(
    rules: KindRules,
    uid: string,
    parentUid: string,
    fields: Record<string, unknown>,
    at: number = this.core.clock(),
  ): Inserted {
    const now = formatTimestamp(at);
    const once: Record<string, unknown> = {};
    const own: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(fields)) {
      if (rules.onceOnly.includes(k)) once[k] = v;
      else if (!OUTPUT_ONLY.includes(k)) own[k] = v;
    }
    const data =
      rules.hooks.stored?.(uid, parentUid, own, now) ??
      orderKeys({ uid, ...own, ...rules.serviceFields(now, own), createTime: now, updateTime: now });
    const refs = rules.hooks.refs?.(data) ?? { identity: null, role: null };
    const row = {
      kind: rules.name,
      uid,
      parentUid,
      scopeUid: rules.scopeDepth === undefined ? parentUid : this.core.scopeOf(rules, uid),
      name: typeof fields[rules.nameField] === "string" ? (fields[rules.nameField] as string) : "",
      refIdentity: refs.identity,
      refRole: refs.role,
      data: JSON.stringify(data),
    };
    return { row: { seq: this.core.table.insert(row), ...row }, once };
  }

  /**
   * An Update (AIP-134) with an optional `updateMask`; answers the whole resource.
   *
   * @example
   * writes.update(caller, "groups", uid, { description: "new" }, "description");
   */
  update(caller: Caller, kind: KindName, uid: string, body: unknown, updateMask: string | undefined): string {
    const rules = KIND_RULES[kind];
    refuseNotUpdatable(rules);
    // The gateway decodes the body into a field mask first (runtime.FieldMaskFromRequestBody): a
    // key the message lacks is code 3 before any permission check or lookup.
    const fields = requireObject(body);
    refuseUnknownKeys(rules, fields);
    this.core.authorize(caller, rules, "update", uid);
    const table = this.core.table;
    return this.core.db.transaction(() => {
      const row = table.get(kind, uid);
      if (row === undefined) throw notFound(rules.spec.singular, uid);
      const current = JSON.parse(row.data) as Record<string, unknown>;
      const paths = maskPaths(rules, updateMask, fields);
      const next = applyPaths(rules, current, fields, paths);
      rules.hooks.completeUpdate?.({ caller, row, current, next, paths });
      if (rules.validate !== undefined) {
        const view = Object.fromEntries(
          rules.spec.mutable.filter((p) => !p.includes(".")).map((p) => [p, next[p]]),
        );
        const checked = rules.validate.safeParse(view);
        if (!checked.success) throwZodViolations(checked.error, rules.hints);
      }
      checkFreeForm(rules, next);
      rules.hooks.beforeUpdate?.(this.core, { caller, row, current, next, paths });
      if (next.name !== row.name) this.checkSiblingName(rules, row.parentUid, next.name, uid);
      if (Object.hasOwn(current, "updateTime")) {
        next.updateTime = nextUpdateTime(current.updateTime as string | undefined, this.core.clock());
      }
      const updated = {
        ...row,
        name: typeof next.name === "string" ? next.name : "",
        // A binding's identity and role are both updatable (role_bindings.proto, UpdateRoleBindingRequest).
        refIdentity: rules.hooks.refs?.(next).identity ?? row.refIdentity,
        refRole: rules.hooks.refs?.(next).role ?? row.refRole,
        data: JSON.stringify(orderKeys(next)),
      };
      table.update(kind, uid, updated);
      return this.core.output(rules, updated.data, caller);
    });
  }

  private checkSiblingName(
    rules: KindRules,
    parentUid: string,
    name: unknown,
    self: string | undefined,
  ): void {
    if (!rules.uniqueNames || typeof name !== "string") return;
    const clash = this.core.table.findByName(rules.name, parentUid, name);
    if (clash !== undefined && clash !== self) {
      throw new ApiFault(
        Code.ALREADY_EXISTS,
        `a ${rules.spec.singular} ${rules.nameField === "name" ? "named" : `with ${rules.nameField}`} ${JSON.stringify(name)} already exists in ${JSON.stringify(parentUid)} (uid ${clash})`,
      );
    }
  }
}
