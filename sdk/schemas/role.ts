import { z } from "zod";
import { Capability } from "./capabilities.js";
import { Timestamp, Uid } from "./common.js";

/**
 * A role: a set of capabilities. Built-in roles (`owner`, `editor`, `viewer`) are global and
 * read-only, and say so in their description; custom roles are created under a group
 * (`parentUid`), keep a flat hex uid, and are visible and bindable in that group's subtree.
 *
 * @example
 * const viewer = Role.parse(body);
 * viewer.capabilities.includes("groups.list"); // true
 */
export const Role = z.object({
  uid: Uid,
  name: z.string(),
  description: z.string().optional(),
  /** Absent on built-in roles (they belong to no group). */
  parentUid: Uid.optional(),
  // Strings, not the enum: a capability added by a newer server never fails an older client's parse.
  capabilities: z.array(z.string()).optional().default([]),
  createTime: Timestamp.optional(),
  updateTime: Timestamp.optional(),
});
/**
 * A role.
 *
 * @example
 * const viewer: Role | undefined = (await client.roles.list({ name: "viewer" })).items[0];
 */
export type Role = z.infer<typeof Role>;

/**
 * The capabilities of a role as a create or an update sends them: known names only; the server
 * sorts them and drops duplicates.
 *
 * @example
 * RoleCapabilities.parse(["groups.list", "groups.list"]); // accepted; stored once
 */
export const RoleCapabilities = z.array(Capability);

/**
 * Body of `POST /iam/v2beta1/roles/<group_uid>` (a custom role under a group, spec §4 rule 1).
 *
 * @example
 * RoleCreate.parse({ name: "auditor", capabilities: ["groups.list", "identity.list"] });
 */
export const RoleCreate = z.object({
  name: z.string().min(1, { message: "is required" }),
  description: z.string().optional(),
  capabilities: RoleCapabilities.optional(),
});
/**
 * Body of a role create.
 *
 * @example
 * const body: RoleCreate = { name: "auditor", description: "Reads everything", capabilities: ["groups.list"] };
 * await client.roles.create(platformUid, body);
 */
export type RoleCreate = z.infer<typeof RoleCreate>;

/**
 * The mutable fields of a custom role, as PATCH paths.
 *
 * @example
 * computeUpdate(role, { ...role, description: undefined }, ROLE_MUTABLE_FIELDS);
 * // → { body: {}, updateMask: ["description"] } when the role had a description
 */
export const ROLE_MUTABLE_FIELDS = ["name", "description", "capabilities"] as const;
