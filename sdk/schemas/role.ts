import { z } from "zod";
import { BUILT_IN_ROLE_CAPABILITIES, toWireCapability, WireCapability } from "./capabilities.js";
import { OptionalString, OptionalTimestamp, repeated, Uid } from "./common.js";

/**
 * A role: a set of capabilities. Built-in roles (`owner`, `editor`, `viewer`) are global and
 * read-only, and say so in their description; custom roles are created under a group, keep a flat
 * hex uid, and are visible and bindable in that group's subtree. The published `Role` message
 * (`iam/v2beta1/roles.proto:142-172`) carries no parent: list with `childrenOf` to find a group's
 * roles. Capabilities arrive as enum names (`CAP_IAM_GROUPS_LIST`) and read as display names.
 *
 * @example
 * const viewer = Role.parse(body);
 * viewer.capabilities.includes("groups.list"); // true
 */
export const Role = z.object({
  uid: Uid,
  name: z.string(),
  description: OptionalString,
  // Strings, not the enum: a capability added by a newer server never fails an older client's parse.
  capabilities: repeated(WireCapability),
  createTime: OptionalTimestamp,
  updateTime: OptionalTimestamp,
});
/**
 * A role.
 *
 * @example
 * const viewer: Role | undefined = (await client.roles.list({ name: "viewer" })).items[0];
 */
export type Role = z.infer<typeof Role>;

/**
 * The capabilities of a role as a create or an update carries them on the wire: enum value names
 * (or numbers). The client writes display names and {@link encodeRole} turns them into enum names.
 *
 * @example
 * RoleCapabilities.parse(["CAP_IAM_GROUPS_LIST", 903]); // accepted
 */
export const RoleCapabilities = z.array(z.union([z.string(), z.number().int()]), {
  error: "must be a list of capabilities",
});

/**
 * The wire form of a role create or update body: capability display names become enum names.
 *
 * @example
 * encodeRole({ name: "auditor", capabilities: ["groups.list"] });
 * // → { name: "auditor", capabilities: ["CAP_IAM_GROUPS_LIST"] }
 */
export function encodeRole(body: Record<string, unknown>): Record<string, unknown> {
  const { capabilities } = body;
  return Array.isArray(capabilities)
    ? { ...body, capabilities: capabilities.map((c) => (typeof c === "string" ? toWireCapability(c) : c)) }
    : body;
}

/**
 * Body of `POST /iam/v2beta1/roles/<group_uid>` (a custom role under a group, spec §4 rule 1), as
 * the wire carries it. Through the client, capabilities may be written as display names.
 *
 * @example
 * RoleCreate.parse({ name: "auditor", capabilities: ["CAP_IAM_GROUPS_LIST", "CAP_IAM_IDENTITY_LIST"] });
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

/**
 * Whether a role is one of the built-in roles (`owner`, `editor`, `viewer`, `registry.pull`, …): global, read-only, and
 * visible in every group's list of roles. No custom role may take their names.
 *
 * @example
 * isBuiltInRole({ name: "viewer" }); // true
 */
export function isBuiltInRole(role: { name: string }): boolean {
  return Object.hasOwn(BUILT_IN_ROLE_CAPABILITIES, role.name);
}
