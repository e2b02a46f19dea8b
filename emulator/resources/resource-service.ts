import type { Identity, KindName } from "pulumi-irv/sdk";
import { toWireCapability } from "pulumi-irv/sdk";
import type { Caller, Principal } from "../auth/index.js";
import { BUILT_IN_ROLES } from "../auth/index.js";
import { formatTimestamp, newRoleUid, notFound } from "../core/index.js";
import type { QueryValues } from "../lists/index.js";
import type { ResourceRow, ResourceTable } from "../store/index.js";
import { setCustomAssembly } from "./custom-assembly.js";
import type { KindRules } from "./kind-rules.js";
import { KIND_RULES } from "./kind-rules.js";
import { RepoReadmes } from "./repo-readme.js";
import { ResourceDeletes } from "./resource-deletes.js";
import type { StoredPage, StoredRow } from "./resource-reads.js";
import { ResourceReads } from "./resource-reads.js";
import { ResourceWrites } from "./resource-writes.js";
import type { ResourceServiceOptions } from "./service-core.js";
import { ServiceCore } from "./service-core.js";

export { MAX_LISTED_VIOLATIONS } from "./limits.js";
export type { ResourceServiceOptions } from "./service-core.js";

/**
 * A write a caller made through the API (either transport), told after it is committed. Every write
 * rpc ends in one method of {@link ResourceService}, which tells it: the kind's own Create, Update
 * and Delete by their verb, any other by its published rpc name.
 *
 * @example
 * service.onWrite((w) => console.log(w.verb, w.kind, w.rpc ?? "", w.uid));
 */
export interface WriteNotice {
  kind: KindName;
  verb: "create" | "update" | "delete";
  /**
   * The published method name when the write is not the kind's own rpc of its verb
   * (`UpdateRepoReadme`, `BatchDeleteExternalGroupRoleMappings`).
   */
  rpc?: string | undefined;
  caller: Caller;
  /** The uid the write is about, its event's subject (a create's, read from the answer). */
  uid: string;
  /** The group whose capabilities governed the write (a custom role's own group). */
  scope: string;
  /** The JSON answered to the caller; undefined when the answer is empty (a delete). */
  answer: string | undefined;
}

/**
 * The v2beta1 API over the resource table, in three parts — {@link ResourceReads},
 * {@link ResourceWrites}, {@link ResourceDeletes} — over one {@link ServiceCore}: capability checks
 * (before any existence check, so a denied caller learns nothing), validation, the rules of the
 * spec and the kinds' own behaviour from the rules table. Methods return the JSON to answer, or
 * throw an ApiFault.
 *
 * @example
 * const service = new ResourceService({ db, clock: Date.now, pageTokens });
 * const json = service.create(service.admin, "groups", service.orgUid, { name: "platform" });
 */
export class ResourceService {
  readonly table: ResourceTable;
  readonly orgUid: string;
  /** The admin token's caller: every capability on the root organization. */
  readonly admin: Caller;
  private readonly core: ServiceCore;
  private readonly reads: ResourceReads;
  private readonly writes: ResourceWrites;
  private readonly deletes: ResourceDeletes;
  private writeListener: ((write: WriteNotice) => void) | undefined;
  private readonly readmes: RepoReadmes;

  constructor(o: ResourceServiceOptions) {
    this.core = new ServiceCore(o);
    this.table = this.core.table;
    this.orgUid = this.core.orgUid;
    this.admin = this.core.admin;
    this.reads = new ResourceReads(this.core);
    this.writes = new ResourceWrites(this.core);
    this.deletes = new ResourceDeletes(this.core);
    this.readmes = new RepoReadmes(this.core);
    o.db.transaction(() => this.ensureOrganization(o));
  }

  private ensureOrganization(o: ResourceServiceOptions): void {
    if (o.db.getMeta("orgUid") === undefined) {
      o.db.setMeta("orgUid", this.orgUid);
      this.writes.writeNew(KIND_RULES.groups, this.orgUid, "", {
        name: "org",
        description: "Root organization of the IRV emulator",
      });
    }
    for (const role of BUILT_IN_ROLES) {
      const fields = {
        name: role.name,
        description: role.description,
        capabilities: role.capabilities.map(toWireCapability),
      };
      let uid = this.table.findByName("roles", "", role.name);
      if (uid === undefined) uid = this.writes.writeNew(KIND_RULES.roles, newRoleUid(), "", fields).row.uid;
      else {
        // A database of an older emulator: give the built-in role today's capabilities.
        const data = JSON.parse(this.table.get("roles", uid)?.data ?? "{}") as Record<string, unknown>;
        this.table.updateData(
          "roles",
          uid,
          JSON.stringify({ ...data, ...fields, createTime: data.createTime, updateTime: data.updateTime }),
        );
      }
      this.core.registerBuiltIn(uid, role.capabilities);
    }
  }

  /**
   * The caller behind an authenticated principal (see {@link ServiceCore.callerOf}).
   *
   * @example
   * const caller = service.callerOf({ kind: "identity", uid });
   */
  callerOf(principal: Principal): Caller {
    return this.core.callerOf(principal);
  }

  /**
   * A List: only what the caller may read, never refused.
   *
   * @example
   * service.list(caller, "groups", { "uidp.children_of": orgUid });
   */
  list(caller: Caller, kind: KindName, query: QueryValues): string {
    return this.reads.list(caller, kind, query);
  }

  /**
   * A Get by uid.
   *
   * @example
   * service.get(caller, "groups", uid);
   */
  get(caller: Caller, kind: KindName, uid: string): string {
    return this.reads.get(caller, kind, uid);
  }

  /**
   * A List's page as its rows as stored, and how each is answered (the gRPC transport encodes them).
   *
   * @example
   * service.listStored(caller, "groups", { page_size: "10" }).rows.length;
   */
  listStored(caller: Caller, kind: KindName, query: QueryValues): StoredPage {
    return this.reads.listStored(caller, kind, query);
  }

  /**
   * A Get's row as stored, and how it is answered (the gRPC transport encodes it).
   *
   * @example
   * const got = service.getStored(caller, "groups", uid);
   * got.output(got.stored).name;
   */
  getStored(caller: Caller, kind: KindName, uid: string): StoredRow {
    return this.reads.getStored(caller, kind, uid);
  }

  /**
   * The v1 list of groups or repos.
   *
   * @example
   * service.listV1(caller, "groups", { id: uid });
   */
  listV1(caller: Caller, kind: "groups" | "repos", query: QueryValues): string {
    return this.reads.listV1(caller, kind, query);
  }

  /**
   * A Create under a parent group (custom roles too).
   *
   * @example
   * service.create(caller, "identities", groupUid, { name: "ci", claimMatch: { issuer, subject } });
   */
  create(caller: Caller, kind: KindName, parentUid: string, body: unknown): string {
    const answer = this.writes.create(caller, kind, parentUid, body);
    this.told(() => {
      const uid = (JSON.parse(answer) as { uid?: unknown }).uid;
      return { kind, verb: "create", caller, uid: String(uid ?? ""), scope: parentUid, answer };
    });
    return answer;
  }

  /**
   * Inserts a resource as the admin, without the Create capability check (fixtures and the control
   * API); the kind's rules apply.
   *
   * @example
   * service.insert(KIND_RULES.repos, groupUid, { name: "app" });
   */
  insert(rules: KindRules, parentUid: string, fields: Record<string, unknown>, uid?: string): ResourceRow {
    return this.writes.insertAs(this.admin, rules, parentUid, fields, uid).row;
  }

  /**
   * An Update with an optional `updateMask`.
   *
   * @example
   * service.update(caller, "groups", uid, { description: "new" }, "description");
   */
  update(caller: Caller, kind: KindName, uid: string, body: unknown, updateMask: string | undefined): string {
    const answer = this.writes.update(caller, kind, uid, body, updateMask);
    this.told(() => ({
      kind,
      verb: "update",
      caller,
      uid,
      scope: this.scopeOf(KIND_RULES[kind], uid),
      answer,
    }));
    return answer;
  }

  /**
   * A Delete.
   *
   * @example
   * service.delete(caller, "identities", uid);
   */
  delete(caller: Caller, kind: KindName, uid: string): void {
    // Read before the row goes: a custom role's group is in its row only.
    const scope = this.writeListener === undefined ? "" : this.scopeOf(KIND_RULES[kind], uid);
    this.deletes.delete(caller, kind, uid);
    if (kind === "repos") this.readmes.forget(uid);
    this.told(() => ({ kind, verb: "delete", caller, uid, scope, answer: undefined }));
  }

  /**
   * Sets the one listener told of every API write once it is committed (the webhook deliveries).
   * It runs before the answer is sent, so it must only take note; whatever it throws is logged and
   * never reaches the caller.
   *
   * @example
   * service.onWrite((w) => deliveries.written(w));
   */
  onWrite(listener: ((write: WriteNotice) => void) | undefined): void {
    this.writeListener = listener;
  }

  // The one place a committed API write is told: the notice is built only when someone listens.
  private told(notice: () => WriteNotice): void {
    if (this.writeListener === undefined) return;
    try {
      this.writeListener(notice());
    } catch (e) {
      process.stderr.write(`irv-emulator: a write's listener failed: ${String((e as Error).stack ?? e)}\n`);
    }
  }

  /**
   * The batch delete of an identity provider's external group role mappings.
   *
   * @example
   * service.batchDeleteMappings(caller, idpUid, [mappingUid]);
   */
  batchDeleteMappings(caller: Caller, parent: string, names: unknown): string {
    const answer = this.deletes.batchDeleteMappings(caller, parent, names);
    // The published event is about the identity provider: its subject is the request's parent.
    this.told(() => ({
      kind: "externalGroupRoleMappings",
      verb: "delete",
      rpc: "BatchDeleteExternalGroupRoleMappings",
      caller,
      uid: parent,
      scope: this.scopeOf(KIND_RULES.identityProviders, parent),
      answer,
    }));
    return answer;
  }

  /**
   * A repo's readme (see {@link RepoReadmes}).
   *
   * @example
   * service.getReadme(caller, repoUid);
   */
  getReadme(caller: Caller, uid: string): string {
    return this.readmes.get(caller, uid);
  }

  /**
   * Writes a repo's readme (see {@link RepoReadmes}).
   *
   * @example
   * service.updateReadme(caller, repoUid, { content: "# app" }, undefined);
   */
  updateReadme(caller: Caller, uid: string, body: unknown, updateMask: string | undefined): string {
    const answer = this.readmes.update(caller, uid, body, updateMask);
    this.told(() => ({
      kind: "repos",
      verb: "update",
      rpc: "UpdateRepoReadme",
      caller,
      uid,
      scope: this.scopeOf(KIND_RULES.repos, uid),
      answer,
    }));
    return answer;
  }

  /**
   * Enables or disables custom assembly for a group (and the groups below it not set themselves).
   *
   * @example
   * service.setCustomAssembly(groupUid, false);
   */
  setCustomAssembly(groupUid: string, enabled: boolean): void {
    if (!this.table.has("groups", groupUid)) throw notFound(KIND_RULES.groups.spec.singular, groupUid);
    setCustomAssembly(this.table, groupUid, enabled);
  }

  /**
   * A Delete without the capability check (the control API's seeded kinds): a repo takes its tags
   * and overlay bindings along.
   *
   * @example
   * service.remove("repos", repoUid);
   */
  remove(kind: KindName, uid: string): void {
    this.deletes.remove(KIND_RULES[kind], uid, this.admin, true);
    if (kind === "repos") this.readmes.forget(uid);
  }

  /**
   * An identity as stored (for the STS), or undefined.
   *
   * @example
   * service.identityOf(uid)?.claimMatch?.subject;
   */
  identityOf(uid: string): Identity | undefined {
    const row = this.table.get("identities", uid);
    return row === undefined ? undefined : (JSON.parse(row.data) as Identity);
  }

  /**
   * Sets an identity's `lastSeenTime` to now (a successful exchange); `updateTime` stays, the
   * identity's own fields did not change.
   *
   * @example
   * service.markSeen(uid);
   */
  markSeen(uid: string): void {
    this.core.db.transaction(() => {
      const row = this.table.get("identities", uid);
      if (row === undefined) return;
      const data = JSON.parse(row.data) as Record<string, unknown>;
      data.lastSeenTime = formatTimestamp(
        Math.max(this.core.clock(), Date.parse(String(data.lastSeenTime)) || 0),
      );
      this.table.updateData("identities", uid, JSON.stringify(data));
    });
  }

  /**
   * The group whose capabilities govern a uid of a kind.
   *
   * @example
   * service.scopeOf(KIND_RULES.tags, "org/group/repo/tag"); // "org/group"
   */
  scopeOf(rules: KindRules, uid: string): string {
    return this.core.scopeOf(rules, uid);
  }
}
