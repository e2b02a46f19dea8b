import { z } from "zod";
import { Timestamp, Uid } from "./common.js";

/**
 * A role. Built-in roles (`owner`, `editor`, `viewer`) say so in their description.
 *
 * @example
 * const viewer = Role.parse(body);
 */
export const Role = z.object({
  uid: Uid,
  name: z.string(),
  description: z.string().optional(),
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
 * Body of a custom role create (`POST /iam/v2beta1/roles`; not shown in the spec, see
 * docs/contract-decisions.md).
 *
 * @example
 * RoleCreate.parse({ name: "auditor" });
 */
export const RoleCreate = z.object({
  name: z.string().min(1, { message: "is required" }),
  description: z.string().optional(),
});
/**
 * Body of a role create.
 *
 * @example
 * const body: RoleCreate = { name: "auditor", description: "Reads everything" };
 * await client.roles.create(undefined, body); // roles are flat: no parent
 */
export type RoleCreate = z.infer<typeof RoleCreate>;

/**
 * The mutable fields of a custom role, as PATCH paths.
 *
 * @example
 * computeUpdate(role, { ...role, description: undefined }, ROLE_MUTABLE_FIELDS);
 * // → { body: {}, updateMask: ["description"] } when the role had a description
 */
export const ROLE_MUTABLE_FIELDS = ["name", "description"] as const;
