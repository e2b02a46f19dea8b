import { z } from "zod";
import { HIERARCHICAL_UID_PATTERN, OptionalTimestamp, ProtoString, Uid } from "./common.js";

// The published `ExternalGroupRoleMapping` (iam/v2beta1/external_group_role_mappings.proto): the
// members of an identity provider's external group hold a role at a scope. Immutable: no update rpc.

/**
 * A mapping as read. Its uid is a child of its identity provider's uid.
 *
 * @example
 * const m = ExternalGroupRoleMapping.parse(body);
 * m.externalGroupId; // "platform-admins"
 */
export const ExternalGroupRoleMapping = z.object({
  uid: Uid,
  identityProviderUid: ProtoString,
  externalGroupId: ProtoString,
  roleUid: ProtoString,
  scope: ProtoString,
  createTime: OptionalTimestamp,
});
/**
 * An external group mapped to a role: a grant to everyone in that group.
 *
 * @example
 * const m: ExternalGroupRoleMapping = await client.externalGroupRoleMappings.get(uid);
 */
export type ExternalGroupRoleMapping = z.infer<typeof ExternalGroupRoleMapping>;

/**
 * Body of `POST /iam/<version>/externalGroupRoleMappings/<identity_provider_uid>`. The scope is a
 * group uid; the service holds it to the organization root for now.
 *
 * @example
 * ExternalGroupRoleMappingCreate.parse({ externalGroupId: "admins", roleUid: owner.uid, scope: orgUid });
 */
export const ExternalGroupRoleMappingCreate = z.object({
  externalGroupId: z.string().min(1, { message: "is required" }),
  roleUid: z.string().min(1, { message: "is required" }),
  scope: z
    .string()
    .regex(HIERARCHICAL_UID_PATTERN, { message: "must be a group uid (the organization root)" }),
});
/**
 * Body of a mapping create.
 *
 * @example
 * await client.externalGroupRoleMappings.create(idp.uid, { externalGroupId: "admins", roleUid, scope: orgUid });
 */
export type ExternalGroupRoleMappingCreate = z.infer<typeof ExternalGroupRoleMappingCreate>;

/**
 * Answer of `POST /iam/<version>/externalGroupRoleMappings:batchDelete`.
 *
 * @example
 * const { parent } = BatchDeleteMappingsResponse.parse(await res.json());
 */
export const BatchDeleteMappingsResponse = z.object({
  parent: ProtoString,
  externalGroupRoleMappings: z
    .array(ExternalGroupRoleMapping)
    .nullish()
    .transform((v) => v ?? []),
});
/**
 * What a batch delete answers: the identity provider, and the mappings it deleted.
 *
 * @example
 * const { externalGroupRoleMappings: gone } = await client.externalGroupRoleMappings.batchDelete(idp.uid, uids);
 */
export type BatchDeleteMappingsResponse = z.infer<typeof BatchDeleteMappingsResponse>;
