import { z } from "zod";
import type { IrvClient, Role } from "../../../sdk/index.js";
import { Capability, ROLE_MUTABLE_FIELDS, RoleSchema } from "../../../sdk/index.js";
import type { Props } from "../kind-definition.js";
import { defineKind } from "../kind-definition.js";
import { nameInput, uidInput } from "./inputs.js";
import { maskWithin } from "./mask.js";
import { defined } from "./parent-uid.js";

/**
 * Inputs of `irv.iam.Role`: capabilities are checked against the sdk's list at preview.
 *
 * @example
 * RoleInputs.parse({ parentUid: platformUid, name: "auditor", capabilities: ["groups.list"] });
 */
export const RoleInputs = z.object({
  parentUid: uidInput("the uid of the group the role is defined in (visible in its subtree)"),
  name: nameInput("the role name"),
  description: z.string().optional(),
  capabilities: z.array(Capability, {
    error: (i) =>
      i.input === undefined
        ? "is required: the capabilities the role grants, such as groups.list"
        : "must be a list of capability names",
  }),
});

// A capability a newer server knows and this package does not is left out of the inputs.
const isCapability = (c: string): c is Capability => Capability.safeParse(c).success;

const findByName = (client: IrvClient, parentUid: string, name: string) => async () =>
  (await client.roles.list({ childrenOf: parentUid, name })).items[0];

// The server keeps a role's capabilities sorted and once each: so does the comparison.
const asSet = (v: unknown) => (Array.isArray(v) ? [...new Set(v)].sort() : v);

/**
 * `irv.iam.Role`: a custom role under `parentUid`; name, description and capabilities change in
 * place (reordering the capabilities is no change); another parent replaces it.
 *
 * @example
 * makeProvider(roleKind, getClient);
 */
export const roleKind = defineKind({
  type: "Role",
  singular: "role",
  inputs: RoleInputs,
  inputKeys: ["parentUid", "name", "description", "capabilities"],
  replaceKeys: ["parentUid"],
  mutableKeys: ["name", "description", "capabilities"],
  outputs: RoleSchema.pick({ uid: true, createTime: true, updateTime: true }),
  comparable: (p: Props) =>
    p.capabilities === undefined ? p : { ...p, capabilities: asSet(p.capabilities) },
  create: (client, { parentUid, name, description, capabilities }) =>
    client.roles.create(
      parentUid,
      { name, capabilities, ...defined({ description }) },
      { findExisting: findByName(client, parentUid, name) },
    ),
  get: (client, uid) => client.roles.find(uid),
  update: (client, uid, body, updateMask) =>
    client.roles.update(uid, body, { updateMask: maskWithin(updateMask, ROLE_MUTABLE_FIELDS) }),
  delete: (client, uid) => client.roles.delete(uid, { ignoreNotFound: true }),
  // The API never returns the group a role is defined in: refresh keeps it from the state
  // (`writeOnly`), import-org finds it by listing each group's roles.
  writeOnly: ["parentUid"],
  inputsOf: (s: Role & { parentUid?: string }) => ({
    parentUid: s.parentUid ?? "",
    name: s.name,
    ...defined({ description: s.description || undefined }),
    capabilities: s.capabilities.filter(isCapability).sort(),
  }),
  outputsOf: (s, inputs) => ({
    ...defined(inputs),
    ...defined({ name: s.name, description: s.description || undefined }),
    capabilities: [...s.capabilities].sort(),
    uid: s.uid,
    ...defined({ createTime: s.createTime, updateTime: s.updateTime }),
  }),
});
