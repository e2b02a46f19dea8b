import { z } from "zod";
import { OptionalString, Timestamp, Uid } from "./common.js";

const httpsUrl = z.url({ protocol: /^https$/, error: "must be an https URL" });

/**
 * The OIDC settings of an identity provider as the API returns them: `clientSecret` is write-only
 * and never comes back.
 *
 * @example
 * Oidc.parse({ issuer: "https://accounts.google.com", clientId: "123.apps.googleusercontent.com", additionalScopes: [] });
 */
export const Oidc = z.object({
  issuer: httpsUrl,
  clientId: z.string().min(1, { message: "is required" }),
  additionalScopes: z.array(z.string().min(1)).optional().default([]),
});

/**
 * The OIDC settings as a create or an update sends them, `clientSecret` included.
 *
 * @example
 * OidcInput.parse({ issuer: "https://accounts.google.com", clientId: "id", clientSecret: "s3cr3t" });
 */
export const OidcInput = z.object({
  issuer: httpsUrl,
  clientId: z.string().min(1, { message: "is required" }),
  clientSecret: z.string().min(1, { message: "is required" }),
  additionalScopes: z.array(z.string().min(1, { message: "must not be empty" })).optional(),
});

/**
 * A custom identity provider of a group: users log in through it and get `defaultRole` there.
 *
 * @example
 * const idp = IdentityProvider.parse(body);
 * "clientSecret" in idp.oidc; // false: write-only
 */
export const IdentityProvider = z.object({
  uid: Uid,
  name: z.string(),
  description: OptionalString,
  // "" when unset (EmitUnpopulated): read as absent.
  defaultRole: OptionalString,
  oidc: Oidc,
  createTime: Timestamp,
  updateTime: Timestamp,
});
/**
 * An identity provider.
 *
 * @example
 * const idps: IdentityProvider[] = await client.identityProviders.collect({ childrenOf: groupUid });
 */
export type IdentityProvider = z.infer<typeof IdentityProvider>;

/**
 * Body of `POST /iam/v2beta1/identityProviders/<group_uid>`.
 *
 * @example
 * IdentityProviderCreate.parse({ name: "google", defaultRole: viewerUid, oidc: { issuer, clientId, clientSecret } });
 */
export const IdentityProviderCreate = z.object({
  name: z.string().min(1, { message: "is required" }),
  description: z.string().optional(),
  // REQUIRED (identity_providers.proto, `default_role`): the role every user gets at first login.
  defaultRole: z.string({ error: "is required: the uid of the role users get at their first login" }).min(1, {
    message: "is required: the uid of the role users get at their first login",
  }),
  oidc: OidcInput,
});
/**
 * Body of an identity provider create.
 *
 * @example
 * const body: IdentityProviderCreate = { name: "google", defaultRole: viewerUid, oidc: { issuer, clientId, clientSecret } };
 * await client.identityProviders.create(groupUid, body);
 */
export type IdentityProviderCreate = z.infer<typeof IdentityProviderCreate>;

/**
 * The mutable fields of an identity provider, as PATCH paths.
 *
 * @example
 * await client.identityProviders.update(uid, { oidc: { clientSecret: rotated } }, { updateMask: ["oidc.clientSecret"] });
 */
export const IDENTITY_PROVIDER_MUTABLE_FIELDS = [
  "name",
  "description",
  "defaultRole",
  "oidc",
  "oidc.issuer",
  "oidc.clientId",
  "oidc.clientSecret",
  "oidc.additionalScopes",
] as const;
