import type { Capability } from "pulumi-irv/sdk";
import type { Caller } from "../auth/index.js";
import type { Clock } from "../core/index.js";
import type { ResourceRow, ResourceTable } from "../store/index.js";

/**
 * What per-kind behaviour may use of the service: the table, the clock, the organization and the
 * roles' capabilities. Built by the service; hooks never reach further.
 *
 * @example
 * const caps = ctx.roleCapabilities(binding.roleUid) ?? [];
 */
export interface KindContext {
  readonly table: ResourceTable;
  readonly clock: Clock;
  readonly orgUid: string;
  /** The capabilities of a role (built-in or custom), or undefined when there is no such role. */
  roleCapabilities(roleUid: string): readonly Capability[] | undefined;
  /** Whether a role uid names a built-in role. */
  isBuiltInRole(roleUid: string): boolean;
}

/**
 * One write as a hook sees it: who asks, where, when, and the resource's fields.
 *
 * @example
 * const w: WriteRequest = { caller, parentUid: groupUid, fields: { name: "ci" }, now: Date.now() };
 */
export interface WriteRequest {
  caller: Caller;
  parentUid: string;
  fields: Record<string, unknown>;
  /**
   * The write's one reading of the clock (ms), also the new resource's createTime: what a hook
   * counts from (a sync's or an invite's expiration) is then exactly that far from it.
   */
  now: number;
}

/**
 * One update as a hook sees it: the row, the resource before and after, and the changed paths.
 *
 * @example
 * if (u.paths.some((p) => p.startsWith("claimMatch"))) refuseEscalation(…);
 */
export interface UpdateRequest {
  caller: Caller;
  row: ResourceRow;
  current: Record<string, unknown>;
  next: Record<string, unknown>;
  paths: readonly string[];
}

/**
 * The behaviour of one kind beyond the common rules, each step optional. Throw an ApiFault to
 * refuse.
 *
 * @example
 * const hooks: KindHooks = { beforeDelete: (ctx, caller, uid) => refuseBoundRole(ctx, uid) };
 */
export interface KindHooks {
  /**
   * The create body as the service reads it, before its schema checks it (an overlay's config with
   * its unpopulated fields dropped); may refuse what the schema would word less clearly.
   */
  prepare?(body: Record<string, unknown>): Record<string, unknown>;
  /** Checks a create and returns the fields to store (normalised). */
  beforeCreate?(ctx: KindContext, w: WriteRequest): Record<string, unknown>;
  /**
   * Completes an applied update before it is validated, adjusting `next` in place: what the kind
   * keeps unless a mask names it (a client secret), what it refuses to change (an immutable rule).
   */
  completeUpdate?(u: UpdateRequest): void;
  /** Checks an update; may adjust `next` in place. */
  beforeUpdate?(ctx: KindContext, u: UpdateRequest): void;
  /**
   * Checks the delete of an existing resource and removes what goes with it (its dependants). Given
   * the uid only: no kind needs more, and a delete then reads no row.
   */
  beforeDelete?(ctx: KindContext, caller: Caller, uid: string): void;
  /** The stored form of a new resource (default: its fields plus uid and timestamps). */
  stored?(
    uid: string,
    parentUid: string,
    fields: Record<string, unknown>,
    now: string,
  ): Record<string, unknown>;
  /** The references the row indexes (role bindings: identity and role). */
  refs?(data: Record<string, unknown>): { identity: string | null; role: string | null };
  /** How a row is named in messages, e.g. a RESOURCE_NOT_EMPTY violation (default: kind and name). */
  describe?(ctx: KindContext, row: ResourceRow): string;
  /**
   * The wire form of a row for this caller, from its stored JSON alone (default: that JSON minus
   * hidden fields). Only the JSON, so that a Get reads that one column.
   */
  output?(ctx: KindContext, caller: Caller, data: string): string;
}
