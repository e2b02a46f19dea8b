import { z } from "zod";
import type { IrvClient, RoleBinding } from "../../../sdk/index.js";
import { RoleBindingSchema } from "../../../sdk/index.js";
import { defineKind } from "../kind-definition.js";
import { uidInput } from "./inputs.js";

/**
 * Inputs of `irv.iam.RoleBinding`.
 *
 * @example
 * RoleBindingInputs.parse({ groupUid, identityUid, roleUid });
 */
export const RoleBindingInputs = z.object({
  groupUid: uidInput("the uid of the group the binding grants the role in"),
  identityUid: uidInput("the uid of the identity that gets the role"),
  roleUid: uidInput("the uid of the role (see irv.iam.getRole)", "flat"),
});

// A binding has no name: the same identity and role in the same group is the same binding.
const findBinding =
  (client: IrvClient, groupUid: string, identityUid: string, roleUid: string) => async () => {
    for await (const b of client.roleBindings.listAll({ childrenOf: groupUid }))
      if (b.identity.uid === identityUid && b.role.uid === roleUid) return b;
    return undefined;
  };

const inputsOf = (b: RoleBinding) => ({
  groupUid: b.group.uid,
  identityUid: b.identity.uid,
  roleUid: b.role.uid,
});

/**
 * `irv.iam.RoleBinding`: the identity and the role change in place (one PATCH, as the published
 * `UpdateRoleBinding` allows); another group replaces it.
 *
 * @example
 * makeProvider(roleBindingKind, getClient);
 */
export const roleBindingKind = defineKind({
  type: "RoleBinding",
  singular: "role binding",
  inputs: RoleBindingInputs,
  inputKeys: ["groupUid", "identityUid", "roleUid"],
  replaceKeys: ["groupUid"],
  mutableKeys: ["identityUid", "roleUid"],
  outputs: RoleBindingSchema.pick({ uid: true, identity: true, group: true, role: true, createTime: true }),
  create: (client, { groupUid, identityUid, roleUid }) =>
    client.roleBindings.create(
      groupUid,
      { identityUid, roleUid },
      { findExisting: findBinding(client, groupUid, identityUid, roleUid) },
    ),
  get: (client, uid) => client.roleBindings.find(uid),
  update: (client, uid, body, updateMask) => client.roleBindings.update(uid, body, { updateMask }),
  delete: (client, uid) => client.roleBindings.delete(uid, { ignoreNotFound: true }),
  inputsOf,
  outputsOf: (b) => ({
    ...inputsOf(b),
    uid: b.uid,
    identity: b.identity,
    group: b.group,
    role: b.role,
    createTime: b.createTime,
  }),
});
