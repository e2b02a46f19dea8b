import { z } from "zod";
import type { Group, IrvClient } from "../../../sdk/index.js";
import { GROUP_NAME_PATTERN, GROUP_NAME_PATTERN_SOURCE, GroupSchema } from "../../../sdk/index.js";
import { defineKind } from "../kind-definition.js";
import { deleteGroup } from "./delete-group.js";
import { required, uidInput } from "./inputs.js";
import { defined, parentUidOf } from "./parent-uid.js";

/**
 * Inputs of `irv.iam.Group`.
 *
 * @example
 * GroupInputs.parse({ parentUid: org, name: "team-a" });
 */
export const GroupInputs = z.object({
  parentUid: uidInput("the uid of the parent group (the organization uid for a top-level group)"),
  name: z
    .string(required("the group name"))
    .regex(GROUP_NAME_PATTERN, { message: `must match the pattern ${GROUP_NAME_PATTERN_SOURCE}` }),
  description: z.string().optional(),
});

const findByName = (client: IrvClient, parentUid: string, name: string) => async () =>
  (await client.groups.list({ childrenOf: parentUid, name })).items[0];

/**
 * `irv.iam.Group`: created under `parentUid`, renamed and re-described in place, moved by replace.
 *
 * @example
 * makeProvider(groupKind, getClient);
 */
export const groupKind = defineKind({
  type: "Group",
  singular: "group",
  inputs: GroupInputs,
  inputKeys: ["parentUid", "name", "description"],
  replaceKeys: ["parentUid"],
  mutableKeys: ["name", "description"],
  outputs: GroupSchema.pick({
    uid: true,
    verified: true,
    resourceLimits: true,
    createTime: true,
    updateTime: true,
  }),
  create: (client, { parentUid, name, description }) =>
    client.groups.create(
      parentUid,
      { name, ...defined({ description }) },
      { findExisting: findByName(client, parentUid, name) },
    ),
  get: (client, uid) => client.groups.find(uid),
  update: (client, uid, body, updateMask) => client.groups.update(uid, body, { updateMask }),
  delete: (client, uid, state) => deleteGroup(client, uid, typeof state.name === "string" ? state.name : uid),
  inputsOf: (s: Group) => ({
    parentUid: parentUidOf(s.uid),
    name: s.name,
    ...defined({ description: s.description || undefined }),
  }),
  outputsOf: (s, inputs) => ({
    ...defined(inputs),
    ...defined({ name: s.name, description: s.description || undefined }),
    uid: s.uid,
    verified: s.verified ?? false,
    resourceLimits: s.resourceLimits ?? {},
    createTime: s.createTime,
    updateTime: s.updateTime,
  }),
});
