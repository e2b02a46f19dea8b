import type { IrvClient } from "../../../sdk/index.js";
import type { KindDefinition, Props } from "../kind-definition.js";
import { IdentityInputs } from "./inputs.js";
import { defined, parentUidOf } from "./parent-uid.js";

const findByName = (client: IrvClient, groupUid: string, name: string) => async () =>
  (await client.identities.list({ childrenOf: groupUid, name })).items[0];

/**
 * `irv.iam.Identity`: created in `groupUid`; name, description and claimMatch change in place.
 *
 * @example
 * makeProvider(identityKind, getClient);
 */
export const identityKind: KindDefinition = {
  type: "Identity",
  singular: "identity",
  inputs: IdentityInputs,
  inputKeys: ["groupUid", "name", "description", "claimMatch"],
  replaceKeys: ["groupUid"],
  mutableKeys: ["name", "description", "claimMatch"],
  async create(client, p) {
    const groupUid = p.groupUid as string;
    const name = p.name as string;
    const body = defined({ name, description: p.description, claimMatch: p.claimMatch }, [
      "name",
      "description",
      "claimMatch",
    ]) as {
      name: string;
      claimMatch: { issuer: string; subject: string };
    };
    return client.identities.create(groupUid, body, { findExisting: findByName(client, groupUid, name) });
  },
  get: (client, uid) => client.identities.find(uid),
  update: (client, uid, body, updateMask) => client.identities.update(uid, body, { updateMask }),
  delete: (client, uid) => client.identities.delete(uid, { ignoreNotFound: true }),
  inputsOf(s): Props {
    return defined(
      {
        groupUid: parentUidOf(String(s.uid)),
        name: s.name,
        description: s.description || undefined,
        claimMatch: s.claimMatch,
      },
      ["groupUid", "name", "description", "claimMatch"],
    );
  },
  outputsOf(s, inputs): Props {
    return {
      ...defined(inputs, ["groupUid", "name", "description", "claimMatch"]),
      ...defined({ name: s.name, description: s.description || undefined, claimMatch: s.claimMatch }, [
        "name",
        "description",
        "claimMatch",
      ]),
      uid: s.uid,
      ...defined({ lastSeenTime: s.lastSeenTime }, ["lastSeenTime"]),
      createTime: s.createTime,
      updateTime: s.updateTime,
    };
  },
};
