import { z } from "zod";
import { OptionalString, Timestamp, Uid } from "./common.js";

/**
 * A role binding connects one identity to one role within a group. Responses carry hydrated
 * references, so no follow-up lookups are needed.
 *
 * @example
 * const b = RoleBinding.parse(body);
 * console.log(b.role.name, "for", b.identity.name, "in", b.group.name);
 */
export const RoleBinding = z.object({
  uid: Uid,
  identity: z.object({
    uid: Uid,
    name: z.string(),
    description: OptionalString,
    // Shown only to callers who may read the identity (no escalation through bindings).
    subject: z.string().optional(),
    issuer: z.string().optional(),
  }),
  group: z.object({ uid: Uid, name: z.string(), description: OptionalString }),
  role: z.object({ uid: Uid, name: z.string(), description: OptionalString }),
  // The published message returns the request fields too (`iam/v2beta1/role_bindings.proto:198,202`).
  identityUid: OptionalString,
  roleUid: OptionalString,
  createTime: Timestamp,
});
/**
 * A hydrated role binding.
 *
 * @example
 * const b: RoleBinding = await client.roleBindings.get(uid);
 */
export type RoleBinding = z.infer<typeof RoleBinding>;

/**
 * Body of `POST /iam/v2beta1/roleBindings/<group_uid>`.
 *
 * @example
 * RoleBindingCreate.parse({ identityUid: id.uid, roleUid: viewer.uid });
 */
export const RoleBindingCreate = z.object({
  identityUid: z.string().min(1, { message: "is required" }),
  roleUid: z.string().min(1, { message: "is required" }),
});
/**
 * Body of a role binding create.
 *
 * @example
 * const body: RoleBindingCreate = { identityUid: ci.uid, roleUid: viewer.uid };
 * await client.roleBindings.create(teamUid, body);
 */
export type RoleBindingCreate = z.infer<typeof RoleBindingCreate>;

/**
 * The mutable fields of a role binding, as PATCH paths: its identity and its role (published
 * `UpdateRoleBindingRequest`, iam/v2beta1/role_bindings.proto: "set identity_uid and/or role_uid").
 * The group is not: moving a binding to another group is a delete and a create.
 *
 * @example
 * await client.roleBindings.update(b.uid, { identityUid: deployer.uid }, { updateMask: ["identityUid"] });
 */
export const ROLE_BINDING_MUTABLE_FIELDS = ["identityUid", "roleUid"] as const;
