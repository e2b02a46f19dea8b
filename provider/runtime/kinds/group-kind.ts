import type { IrvClient } from "../../../sdk/index.js";
import type { KindDefinition, Props } from "../kind-definition.js";
import { deleteGroup } from "./delete-group.js";
import { GroupInputs } from "./inputs.js";
import { defined, parentUidOf } from "./parent-uid.js";

const findByName = (client: IrvClient, parentUid: string, name: string) => async () =>
  (await client.groups.list({ childrenOf: parentUid, name })).items[0];

/**
 * `irv.iam.Group`: created under `parentUid`, renamed and re-described in place, moved by replace.
 *
 * @example
 * makeProvider(groupKind, getClient);
 */
export const groupKind: KindDefinition = {
  type: "Group",
  singular: "group",
  inputs: GroupInputs,
  inputKeys: ["parentUid", "name", "description"],
  replaceKeys: ["parentUid"],
  mutableKeys: ["name", "description"],
  async create(client, p) {
    const parentUid = p.parentUid as string;
    const name = p.name as string;
    const body = defined({ name, description: p.description }, ["name", "description"]) as { name: string };
    return client.groups.create(parentUid, body, { findExisting: findByName(client, parentUid, name) });
  },
  get: (client, uid) => client.groups.find(uid),
  update: (client, uid, body, updateMask) => client.groups.update(uid, body, { updateMask }),
  delete: (client, uid, props) => deleteGroup(client, uid, typeof props.name === "string" ? props.name : uid),
  inputsOf(s): Props {
    return defined(
      { parentUid: parentUidOf(String(s.uid)), name: s.name, description: s.description || undefined },
      ["parentUid", "name", "description"],
    );
  },
  outputsOf(s, inputs): Props {
    return {
      ...defined(inputs, ["parentUid", "name", "description"]),
      ...defined({ name: s.name, description: s.description || undefined }, ["name", "description"]),
      uid: s.uid,
      verified: s.verified ?? false,
      resourceLimits: s.resourceLimits ?? {},
      createTime: s.createTime,
      updateTime: s.updateTime,
    };
  },
};
