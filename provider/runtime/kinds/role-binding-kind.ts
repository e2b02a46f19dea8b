import type { IrvClient, RoleBinding } from "../../../sdk/index.js";
import type { KindDefinition, Props } from "../kind-definition.js";
import { RoleBindingInputs } from "./inputs.js";

// A binding has no name: the same identity and role in the same group is the same binding.
const findBinding =
  (client: IrvClient, groupUid: string, identityUid: string, roleUid: string) => async () => {
    for await (const b of client.roleBindings.listAll({ childrenOf: groupUid }))
      if (b.identity.uid === identityUid && b.role.uid === roleUid) return b;
    return undefined;
  };

/**
 * `irv.iam.RoleBinding`: the role changes in place; another group or identity replaces it.
 *
 * @example
 * makeProvider(roleBindingKind, getClient);
 */
export const roleBindingKind: KindDefinition = {
  type: "RoleBinding",
  singular: "role binding",
  inputs: RoleBindingInputs,
  inputKeys: ["groupUid", "identityUid", "roleUid"],
  replaceKeys: ["groupUid", "identityUid"],
  mutableKeys: ["roleUid"],
  async create(client, p) {
    const groupUid = p.groupUid as string;
    const identityUid = p.identityUid as string;
    const roleUid = p.roleUid as string;
    return client.roleBindings.create(
      groupUid,
      { identityUid, roleUid },
      { findExisting: findBinding(client, groupUid, identityUid, roleUid) },
    );
  },
  get: (client, uid) => client.roleBindings.find(uid),
  update: (client, uid, body, updateMask) => client.roleBindings.update(uid, body, { updateMask }),
  delete: (client, uid) => client.roleBindings.delete(uid, { ignoreNotFound: true }),
  inputsOf(s): Props {
    const b = s as unknown as RoleBinding;
    return { groupUid: b.group.uid, identityUid: b.identity.uid, roleUid: b.role.uid };
  },
  outputsOf(s): Props {
    const b = s as unknown as RoleBinding;
    return {
      groupUid: b.group.uid,
      identityUid: b.identity.uid,
      roleUid: b.role.uid,
      uid: b.uid,
      identity: b.identity,
      group: b.group,
      role: b.role,
      createTime: b.createTime,
    };
  },
};
