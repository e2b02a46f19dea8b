import { z } from "zod";
import type { AccountAssociations, IrvClient } from "../../../sdk/index.js";
import {
  ACCOUNT_ASSOCIATIONS_MUTABLE_FIELDS,
  ACCOUNT_PROVIDERS,
  AccountAssociationsCreateSchema,
} from "../../../sdk/index.js";
import { defineKind } from "../kind-definition.js";
import { nameInput, uidInput } from "./inputs.js";
import { maskWithin } from "./mask.js";
import { defined, parentUidOf } from "./parent-uid.js";

const { amazon, google, azure, github, chainguard } = AccountAssociationsCreateSchema.shape;

/**
 * Inputs of `irv.iam.AccountAssociations`: at least one of the provider blocks.
 *
 * @example
 * AccountAssociationsInputs.parse({ groupUid, name: "prod", amazon: { account: "123456789012" } });
 */
export const AccountAssociationsInputs = z
  .object({
    groupUid: uidInput("the uid of the group the cloud accounts are associated with"),
    name: nameInput("the account associations name"),
    description: z.string().optional(),
    amazon,
    google,
    azure,
    github,
    chainguard,
  })
  .superRefine((a, ctx) => {
    if (ACCOUNT_PROVIDERS.some((p) => a[p] !== undefined)) return;
    ctx.addIssue({
      code: "custom",
      path: ["amazon"],
      message: `at least one of ${ACCOUNT_PROVIDERS.join(", ")} is required`,
    });
  });

const findByName = (client: IrvClient, groupUid: string, name: string) => async () =>
  (await client.accountAssociations.list({ childrenOf: groupUid, name })).items[0];

const blocksOf = (a: Pick<AccountAssociations, (typeof ACCOUNT_PROVIDERS)[number]>) =>
  defined({ amazon: a.amazon, google: a.google, azure: a.azure, github: a.github, chainguard: a.chainguard });

/**
 * `irv.iam.AccountAssociations`: a group's cloud accounts. Each block changes in place as a whole;
 * removing a block clears it through the update mask (the block is listed and absent from the body).
 *
 * @example
 * makeProvider(accountAssociationsKind, getClient);
 */
export const accountAssociationsKind = defineKind({
  type: "AccountAssociations",
  singular: "account associations",
  inputs: AccountAssociationsInputs,
  inputKeys: ["groupUid", "name", "description", ...ACCOUNT_PROVIDERS],
  replaceKeys: ["groupUid"],
  mutableKeys: ["name", "description", ...ACCOUNT_PROVIDERS],
  create: (client, i) =>
    client.accountAssociations.create(
      i.groupUid,
      { name: i.name, ...defined({ description: i.description }), ...blocksOf(i) },
      { findExisting: findByName(client, i.groupUid, i.name) },
    ),
  get: (client, uid) => client.accountAssociations.find(uid),
  update: (client, uid, body, updateMask) =>
    client.accountAssociations.update(uid, body, {
      updateMask: maskWithin(updateMask, ACCOUNT_ASSOCIATIONS_MUTABLE_FIELDS),
    }),
  delete: (client, uid) => client.accountAssociations.delete(uid, { ignoreNotFound: true }),
  inputsOf: (s: AccountAssociations) => ({
    groupUid: parentUidOf(s.uid),
    name: s.name,
    ...defined({ description: s.description || undefined }),
    ...blocksOf(s),
  }),
  outputsOf: (s, inputs) => ({
    ...defined(inputs),
    ...defined({ name: s.name, description: s.description || undefined }),
    ...blocksOf(s),
    uid: s.uid,
    createTime: s.createTime,
    updateTime: s.updateTime,
  }),
});
