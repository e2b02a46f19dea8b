import { z } from "zod";
import type { CorrelationRule, IdentityProvider, IrvClient } from "../../../sdk/index.js";
import {
  effectiveCorrelationRule,
  IDENTITY_PROVIDER_MUTABLE_FIELDS,
  IdentityProviderSchema,
  OidcInput,
} from "../../../sdk/index.js";
import type { Props } from "../kind-definition.js";
import { defineKind } from "../kind-definition.js";
import { UNKNOWN } from "../unknown.js";
import { deleteWhenEmpty, IDENTITY_PROVIDER_PARENT } from "./delete-group.js";
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

// The same settings written two ways are one value: no additional scopes and an empty list (the
// API answers `[]` for both), no groups claim and `""`, PKCE off and unset, and an unset correlation
// rule and the one it means (`CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID`, published comment).
const canonicalOidc = (oidc: unknown) => {
  if (typeof oidc !== "object" || oidc === null) return oidc;
  const out: Props = { ...(oidc as Props) };
  if (Array.isArray(out.additionalScopes) && out.additionalScopes.length === 0) delete out.additionalScopes;
  if (out.groupsClaim === "") delete out.groupsClaim;
  if (out.pkceEnabled === false) delete out.pkceEnabled;
  if (out.correlationRule === UNKNOWN) return out;
  if (
    out.correlationRule === undefined ||
    effectiveCorrelationRule(out.correlationRule) === "CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID"
  )
    delete out.correlationRule;
  return out;
};

/**
 * `irv.iam.IdentityProvider`: an OIDC login for a group's users. Everything but the parent and
 * `oidc.correlationRule` (immutable in the published message) changes in place. `oidc.clientSecret`
 * is write-only: the API never returns it, so refresh keeps the declared value and an import takes
 * it from the program. A public client declares `oidc.pkceEnabled` and no secret (`check` requires
 * one of the two).
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
  replacePaths: ["oidc.correlationRule"],
  mutableKeys: ["name", "description", "defaultRoleUid", "oidc"],
  outputs: IdentityProviderSchema.pick({ uid: true, createTime: true, updateTime: true }),
  secrets: ["oidc.clientSecret"],
  writeOnly: ["oidc.clientSecret"],
  comparable: (p: Props) => (p.oidc === undefined ? p : { ...p, oidc: canonicalOidc(p.oidc) }),
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
  // Refused while mappings live under it: those are deleted first (RESOURCE_NOT_EMPTY is an order).
  delete: (client, uid, state) =>
    deleteWhenEmpty(client, IDENTITY_PROVIDER_PARENT, uid, typeof state.name === "string" ? state.name : uid),
  inputsOf: (s: IdentityProvider) => ({
    parentUid: parentUidOf(s.uid),
    name: s.name,
    ...defined({ description: s.description || undefined }),
    defaultRoleUid: s.defaultRole ?? "",
    oidc: oidcInputsOf(s.oidc),
  }),
  outputsOf: (s, inputs) => ({
    ...defined(inputs),
    ...defined({ name: s.name, description: s.description || undefined }),
    ...defined({ defaultRoleUid: s.defaultRole }),
    oidc: { ...oidcInputsOf(s.oidc), ...defined({ clientSecret: inputs.oidc.clientSecret }) },
    uid: s.uid,
    createTime: s.createTime,
    updateTime: s.updateTime,
  }),
});

// The OIDC inputs that describe the server's settings: what is unset stays out (PKCE off, the
// default correlation rule, no groups claim). The secret is never returned: the runtime puts back
// the one in state (`writeOnly`); a public client (PKCE) needs none, so an import of one asks for none.
function oidcInputsOf(oidc: IdentityProvider["oidc"]): z.infer<typeof OidcInput> {
  const rule = oidc.correlationRule;
  return {
    issuer: oidc.issuer,
    clientId: oidc.clientId,
    additionalScopes: oidc.additionalScopes,
    ...defined({ groupsClaim: oidc.groupsClaim }),
    ...(oidc.pkceEnabled ? { pkceEnabled: true } : { clientSecret: "" }),
    ...(rule === "CORRELATION_RULE_UNSPECIFIED" ? {} : { correlationRule: rule as CorrelationRule }),
  };
}
