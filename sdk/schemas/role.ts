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
/** A role. */
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
/** Body of a role create. */
export type RoleCreate = z.infer<typeof RoleCreate>;

/** The mutable fields of a custom role, as PATCH paths. */
export const ROLE_MUTABLE_FIELDS = ["name", "description"] as const;
