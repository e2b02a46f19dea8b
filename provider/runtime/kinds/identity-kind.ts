import { z } from "zod";
import type { Identity, IrvClient } from "../../../sdk/index.js";
import {
  AwsIdentity,
  ClaimMatch,
  IDENTITY_MUTABLE_FIELDS,
  IDENTITY_VARIANTS,
  IdentitySchema,
  ServicePrincipal,
  StaticKeys,
} from "../../../sdk/index.js";
import { defineKind } from "../kind-definition.js";
import { refuse0xNames } from "./identity-renames.js";
import { ISSUER_URL_RULE, isIssuerUrl, nameInput, uidInput } from "./inputs.js";
import { maskWithin } from "./mask.js";
import { defined, parentUidOf } from "./parent-uid.js";

// The sdk's rules, plus ours for an exact issuer: a workload's token must come over https.
const ClaimMatchInput = ClaimMatch.superRefine((m, ctx) => {
  if (m.issuer !== undefined && !isIssuerUrl(m.issuer))
    ctx.addIssue({ code: "custom", path: ["issuer"], message: ISSUER_URL_RULE, input: m.issuer });
});

const VARIANTS_RULE = `exactly one of ${IDENTITY_VARIANTS.join(", ")} is required (they say who may assume the identity)`;

/**
 * Inputs of `irv.iam.Identity`: exactly one of the variants `claimMatch`, `staticKeys`,
 * `awsIdentity` and `servicePrincipal` (the published names). A name 0.x used (`static`,
 * `awsIdentity.awsArn`, `servicePrincipal: "INGESTER"`, …) fails the check naming its new form.
 *
 * @example
 * IdentityInputs.parse({ groupUid, name: "ci", claimMatch: { issuer: "https://…", subjectPattern: "repo:acme/app:.*" } });
 */
export const IdentityInputs = z.preprocess(
  refuse0xNames,
  z
    .object({
      groupUid: uidInput("the uid of the group the identity belongs to"),
      name: nameInput("the identity name"),
      description: z.string().optional(),
      claimMatch: ClaimMatchInput.optional(),
      staticKeys: StaticKeys.optional(),
      awsIdentity: AwsIdentity.optional(),
      servicePrincipal: ServicePrincipal.optional(),
    })
    .superRefine((i, ctx) => {
      const given = IDENTITY_VARIANTS.filter((v) => i[v] !== undefined);
      if (given.length === 1) return;
      ctx.addIssue({
        code: "custom",
        path: [given[1] ?? "claimMatch"],
        message: `${VARIANTS_RULE}${given.length ? `, got ${given.join(" and ")}` : ", got none"}`,
      });
    }),
);
type IdentityInputs = z.infer<typeof IdentityInputs>;

const findByName = (client: IrvClient, groupUid: string, name: string) => async () =>
  (await client.identities.list({ childrenOf: groupUid, name })).items[0];

const variantsOf = (s: Identity | IdentityInputs) =>
  defined({
    claimMatch: s.claimMatch,
    staticKeys: s.staticKeys,
    awsIdentity: s.awsIdentity,
    // A principal the service added after this version is kept as read: refresh and import show
    // it; only writing one needs a version that knows it (check refuses unknown names).
    servicePrincipal: s.servicePrincipal as ServicePrincipal | undefined,
  });

/**
 * `irv.iam.Identity`: created in `groupUid`; name, description and the variant change in place
 * (switching variant is one PATCH that sets the new one and clears the old one through the mask).
 *
 * @example
 * makeProvider(identityKind, getClient);
 */
export const identityKind = defineKind({
  type: "Identity",
  singular: "identity",
  inputs: IdentityInputs,
  inputKeys: ["groupUid", "name", "description", ...IDENTITY_VARIANTS],
  replaceKeys: ["groupUid"],
  mutableKeys: ["name", "description", ...IDENTITY_VARIANTS],
  // Left out, the service sets it to creation + 365 days: not a change of the program's.
  defaultedByServer: ["staticKeys.expirationTime"],
  outputs: IdentitySchema.in.pick({ uid: true, lastSeenTime: true, createTime: true, updateTime: true }),
  create: (client, i) =>
    client.identities.create(
      i.groupUid,
      { name: i.name, ...defined({ description: i.description }), ...variantsOf(i) },
      { findExisting: findByName(client, i.groupUid, i.name) },
    ),
  get: (client, uid) => client.identities.find(uid),
  update: (client, uid, body, updateMask) =>
    client.identities.update(uid, body, { updateMask: maskWithin(updateMask, IDENTITY_MUTABLE_FIELDS) }),
  delete: (client, uid) => client.identities.delete(uid, { ignoreNotFound: true }),
  inputsOf: (s: Identity) => ({
    groupUid: parentUidOf(s.uid),
    name: s.name,
    ...defined({ description: s.description || undefined }),
    ...variantsOf(s),
  }),
  outputsOf: (s, inputs) => ({
    ...defined(inputs),
    ...defined({ name: s.name, description: s.description || undefined }),
    ...variantsOf(s),
    uid: s.uid,
    ...defined({ lastSeenTime: s.lastSeenTime }),
    createTime: s.createTime,
    updateTime: s.updateTime,
  }),
});
