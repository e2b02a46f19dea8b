import { z } from "zod";
import type { AccountAssociations } from "../../../sdk/index.js";
import {
  ACCOUNT_ASSOCIATIONS_MUTABLE_FIELDS,
  ACCOUNT_PROVIDERS,
  AccountAssociationsCreateSchema,
  AccountAssociationsSchema,
  GitHub,
} from "../../../sdk/index.js";
import { defineKind } from "../kind-definition.js";
import { nameInput, uidInput } from "./inputs.js";
import { maskWithin } from "./mask.js";
import { defined } from "./parent-uid.js";

const { amazon, google, azure, chainguard } = AccountAssociationsCreateSchema.shape;

// The 0.x shape had no GitHub App id, which the published map is keyed by: it cannot be converted,
// so it is refused naming the new shape rather than dropped.
const github = GitHub.extend({
  installations: z
    .never({
      error:
        'is the 0.x shape: write github.appInstallations, keyed by GitHub App id: { "<app id>": { installations: [{ installationId, name? }] } }',
    })
    .optional(),
}).optional();

/**
 * Inputs of `irv.iam.AccountAssociations`: the group (whose one association this is), a name, and
 * any of the provider blocks (all optional, as published: `iam/account_associations.proto:179-200`).
 *
 * @example
 * AccountAssociationsInputs.parse({ groupUid, name: "prod", amazon: { account: "123456789012" } });
 */
export const AccountAssociationsInputs = z.object({
  groupUid: uidInput("the uid of the group the cloud accounts are associated with"),
  name: nameInput("the account associations name"),
  description: z.string().optional(),
  amazon,
  google,
  azure,
  github,
  chainguard,
});

const blocksOf = (a: Partial<Pick<AccountAssociations, (typeof ACCOUNT_PROVIDERS)[number]>>) =>
  defined({
    amazon: a.amazon,
    google: a.google,
    azure: a.azure,
    github: a.github && { appInstallations: a.github.appInstallations },
    chainguard: a.chainguard,
  });

/**
 * `irv.iam.AccountAssociations`: a group's cloud accounts. A group has one association, whose uid
 * is the group's uid (so is the resource's id); moving it to another group replaces it. Each block
 * changes in place as a whole; removing a block clears it through the update mask (the block is
 * listed and absent from the body).
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
  outputs: AccountAssociationsSchema.pick({ uid: true, createTime: true, updateTime: true }),
  create: (client, i) =>
    client.accountAssociations.create(
      i.groupUid,
      { name: i.name, ...defined({ description: i.description }), ...blocksOf(i) },
      // The group's association, if a lost answer hid that this create made it.
      { findExisting: () => client.accountAssociations.find(i.groupUid) },
    ),
  get: (client, uid) => client.accountAssociations.find(uid),
  update: (client, uid, body, updateMask) =>
    client.accountAssociations.update(uid, body, {
      updateMask: maskWithin(updateMask, ACCOUNT_ASSOCIATIONS_MUTABLE_FIELDS),
    }),
  delete: (client, uid) => client.accountAssociations.delete(uid, { ignoreNotFound: true }),
  inputsOf: (s: AccountAssociations) => ({
    groupUid: s.uid,
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
