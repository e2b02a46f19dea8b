import { z } from "zod";
import type { ExternalGroupRoleMapping, IrvClient } from "../../../sdk/index.js";
import { ExternalGroupRoleMappingSchema } from "../../../sdk/index.js";
import { defineKind } from "../kind-definition.js";
import { nameInput, uidInput } from "./inputs.js";
import { defined, parentUidOf } from "./parent-uid.js";

/**
 * The organization root of a uid: its first 40 hex digits, the scope a mapping defaults to.
 *
 * @example
 * orgRootOf(`${orgUid}/0123456789abcdef`); // orgUid
 */
export const orgRootOf = (uid: string): string => uid.slice(0, 40);

/**
 * Inputs of `irv.iam.ExternalGroupRoleMapping`: the identity provider, the external group (as the
 * provider's groups claim names it), the role its members hold, and the scope (the organization
 * root, which the service requires for now, and the default).
 *
 * @example
 * ExternalGroupRoleMappingInputs.parse({ identityProviderUid, externalGroupId: "platform-admins", roleUid });
 */
export const ExternalGroupRoleMappingInputs = z
  .object({
    identityProviderUid: uidInput("the uid of the identity provider whose external group is mapped"),
    externalGroupId: nameInput("the external group, as the identity provider's groups claim names it"),
    roleUid: uidInput("the uid of the role the group's members hold (see irv.iam.getRole)", "flat"),
    scope: uidInput("the group the role is held in: the organization root").optional(),
  })
  .superRefine((i, ctx) => {
    if (i.scope === undefined || i.scope === orgRootOf(i.identityProviderUid)) return;
    ctx.addIssue({
      code: "custom",
      path: ["scope"],
      message: `must be the organization root of the identity provider (${orgRootOf(i.identityProviderUid)}): the service holds a mapping's scope to it; leave scope out to use it`,
    });
  });

// A mapping has no name: the same external group and role under one provider is the same mapping.
const findMapping =
  (client: IrvClient, idpUid: string, externalGroupId: string, roleUid: string) => async () => {
    for await (const m of client.externalGroupRoleMappings.listAll({ childrenOf: idpUid }))
      if (m.externalGroupId === externalGroupId && m.roleUid === roleUid) return m;
    return undefined;
  };

const inputsOf = (m: ExternalGroupRoleMapping) => ({
  identityProviderUid: m.identityProviderUid || parentUidOf(m.uid),
  externalGroupId: m.externalGroupId,
  roleUid: m.roleUid,
  ...defined({ scope: m.scope || undefined }),
});

/**
 * `irv.iam.ExternalGroupRoleMapping`: everyone in an identity provider's external group holds a role
 * (a grant, as a role binding is). Immutable: any change replaces it, the new one first.
 *
 * @example
 * makeProvider(externalGroupRoleMappingKind, getClient);
 */
export const externalGroupRoleMappingKind = defineKind({
  type: "ExternalGroupRoleMapping",
  singular: "external group role mapping",
  inputs: ExternalGroupRoleMappingInputs,
  inputKeys: ["identityProviderUid", "externalGroupId", "roleUid", "scope"],
  replaceKeys: ["identityProviderUid", "externalGroupId", "roleUid", "scope"],
  mutableKeys: [],
  outputs: ExternalGroupRoleMappingSchema.pick({ uid: true, createTime: true }),
  // Left out, the scope is the organization root the service records.
  defaultedByServer: ["scope"],
  create: (client, { identityProviderUid, externalGroupId, roleUid, scope }) =>
    client.externalGroupRoleMappings.create(
      identityProviderUid,
      { externalGroupId, roleUid, scope: scope ?? orgRootOf(identityProviderUid) },
      { findExisting: findMapping(client, identityProviderUid, externalGroupId, roleUid) },
    ),
  get: (client, uid) => client.externalGroupRoleMappings.find(uid),
  update: () => Promise.reject(new Error("external group role mappings are replaced, never updated")),
  delete: (client, uid) => client.externalGroupRoleMappings.delete(uid, { ignoreNotFound: true }),
  inputsOf,
  outputsOf: (m) => ({ ...inputsOf(m), uid: m.uid, ...defined({ createTime: m.createTime }) }),
});
