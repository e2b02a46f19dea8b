import { z } from "zod";
import type { IdentityProvider, IrvClient } from "../../../sdk/index.js";
import { IDENTITY_PROVIDER_MUTABLE_FIELDS, IdentityProviderSchema, OidcInput } from "../../../sdk/index.js";
import type { Props } from "../kind-definition.js";
import { defineKind } from "../kind-definition.js";
import { nameInput, uidInput } from "./inputs.js";
import { maskWithin, renameFields } from "./mask.js";
import { defined, parentUidOf } from "./parent-uid.js";

/**
 * Inputs of `irv.iam.IdentityProvider`.
 *
 * @example
 * IdentityProviderInputs.parse({ parentUid, name: "google", defaultRoleUid, oidc: { issuer, clientId, clientSecret } });
 */
export const IdentityProviderInputs = z.object({
  parentUid: uidInput("the uid of the group whose users log in through the identity provider"),
  name: nameInput("the identity provider name"),
  description: z.string().optional(),
  // REQUIRED in the published message (identity_providers.proto, `default_role`).
  defaultRoleUid: uidInput(
    "every identity provider needs the uid of the role its users get at their first login (see irv.iam.getRole)",
    "flat",
  ),
  oidc: OidcInput,
});

const findByName = (client: IrvClient, parentUid: string, name: string) => async () =>
  (await client.identityProviders.list({ childrenOf: parentUid, name })).items[0];

// No additional scopes and an empty list are the same (the API answers `[]` for both).
const withoutEmptyScopes = (oidc: unknown) => {
  if (typeof oidc !== "object" || oidc === null || !("additionalScopes" in oidc)) return oidc;
  const { additionalScopes, ...rest } = oidc;
  return Array.isArray(additionalScopes) && additionalScopes.length === 0 ? rest : oidc;
};

/**
 * `irv.iam.IdentityProvider`: an OIDC login for a group's users. Everything but the parent changes
 * in place. `oidc.clientSecret` is write-only: the API never returns it, so refresh keeps the
 * declared value and an import takes it from the program.
 *
 * @example
 * makeProvider(identityProviderKind, getClient);
 */
export const identityProviderKind = defineKind({
  type: "IdentityProvider",
  singular: "identity provider",
  inputs: IdentityProviderInputs,
  inputKeys: ["parentUid", "name", "description", "defaultRoleUid", "oidc"],
  replaceKeys: ["parentUid"],
  mutableKeys: ["name", "description", "defaultRoleUid", "oidc"],
  outputs: IdentityProviderSchema.pick({ uid: true, createTime: true, updateTime: true }),
  secrets: ["oidc.clientSecret"],
  writeOnly: ["oidc.clientSecret"],
  comparable: (p: Props) => (p.oidc === undefined ? p : { ...p, oidc: withoutEmptyScopes(p.oidc) }),
  create: (client, { parentUid, name, description, defaultRoleUid, oidc }) =>
    client.identityProviders.create(
      parentUid,
      { name, defaultRole: defaultRoleUid, oidc, ...defined({ description }) },
      { findExisting: findByName(client, parentUid, name) },
    ),
  get: (client, uid) => client.identityProviders.find(uid),
  update: (client, uid, body, updateMask) => {
    const patch = renameFields(body, updateMask, { defaultRoleUid: "defaultRole" });
    return client.identityProviders.update(uid, patch.body, {
      updateMask: maskWithin(patch.updateMask, IDENTITY_PROVIDER_MUTABLE_FIELDS),
    });
  },
  delete: (client, uid) => client.identityProviders.delete(uid, { ignoreNotFound: true }),
  inputsOf: (s: IdentityProvider) => ({
    parentUid: parentUidOf(s.uid),
    name: s.name,
    ...defined({ description: s.description || undefined }),
    defaultRoleUid: s.defaultRole ?? "",
    // The secret is never returned: the runtime puts back the one in state (`writeOnly`).
    oidc: { ...s.oidc, clientSecret: "" },
  }),
  outputsOf: (s, inputs) => ({
    ...defined(inputs),
    ...defined({ name: s.name, description: s.description || undefined }),
    ...defined({ defaultRoleUid: s.defaultRole }),
    oidc: { ...s.oidc, clientSecret: inputs.oidc.clientSecret },
    uid: s.uid,
    createTime: s.createTime,
    updateTime: s.updateTime,
  }),
});
