import { z } from "zod";
import { OptionalString, protoEnum, Timestamp, Uid } from "./common.js";

const httpsUrl = z.url({ protocol: /^https$/, error: "must be an https URL" });

/**
 * How an OIDC login is matched to the user a SCIM provisioning made, in enum order (the published
 * `IdentityProvider.OIDC.CorrelationRule`, iam/v2beta1/identity_providers.proto). Unset
 * (`CORRELATION_RULE_UNSPECIFIED`) is taken as `CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID`. Immutable
 * once the identity provider exists.
 *
 * @example
 * CORRELATION_RULES.includes("CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID"); // true
 */
export const CORRELATION_RULES = [
  "CORRELATION_RULE_UNSPECIFIED",
  "CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID",
  "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID",
] as const;

/**
 * A correlation rule by its published name.
 *
 * @example
 * const rule: CorrelationRule = "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID"; // Entra ID
 */
export type CorrelationRule = (typeof CORRELATION_RULES)[number];

/**
 * The rule that takes effect: unset and `CORRELATION_RULE_UNSPECIFIED` mean
 * `CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID` (published comment of `correlation_rule`), so two values
 * that differ only there are the same rule.
 *
 * @example
 * effectiveCorrelationRule(undefined); // "CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID"
 * effectiveCorrelationRule(2);         // "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID"
 */
export function effectiveCorrelationRule(rule: unknown): string {
  const name = typeof rule === "number" ? (CORRELATION_RULES[rule] ?? String(rule)) : rule;
  return name === undefined || name === null || name === "" || name === CORRELATION_RULES[0]
    ? CORRELATION_RULES[1]
    : String(name);
}

/**
 * The OIDC settings of an identity provider as the API returns them: `clientSecret` is write-only
 * and never comes back. `groupsClaim` is read as absent when `""`, `pkceEnabled` as false when
 * unset, `correlationRule` by name (`CORRELATION_RULE_UNSPECIFIED` when unset).
 *
 * @example
 * Oidc.parse({ issuer: "https://accounts.google.com", clientId: "123.apps.googleusercontent.com", additionalScopes: [] });
 */
export const Oidc = z.object({
  issuer: httpsUrl,
  clientId: z.string().min(1, { message: "is required" }),
  additionalScopes: z.array(z.string().min(1)).optional().default([]),
  groupsClaim: OptionalString,
  correlationRule: protoEnum(CORRELATION_RULES),
  pkceEnabled: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
});

/**
 * The OIDC settings as a create or an update sends them, `clientSecret` included. A confidential
 * client sends `clientSecret`; a public client authenticates with PKCE instead (`pkceEnabled`):
 * at least one of the two is required (published `client_secret` comment).
 *
 * @example
 * OidcInput.parse({ issuer: "https://accounts.google.com", clientId: "id", clientSecret: "s3cr3t" });
 * OidcInput.parse({ issuer: "https://login.example.com", clientId: "cli", pkceEnabled: true }); // public client
 */
export const OidcInput = z
  .object({
    issuer: httpsUrl,
    clientId: z.string().min(1, { message: "is required" }),
    clientSecret: z.string().optional(),
    additionalScopes: z.array(z.string().min(1, { message: "must not be empty" })).optional(),
    groupsClaim: z.string().optional(),
    correlationRule: z
      .enum(CORRELATION_RULES, {
        error: `must be one of ${CORRELATION_RULES.join(", ")}`,
      })
      .optional(),
    pkceEnabled: z.boolean().optional(),
  })
  .superRefine((oidc, ctx) => {
    if (!oidc.clientSecret && oidc.pkceEnabled !== true)
      ctx.addIssue({
        code: "custom",
        path: ["clientSecret"],
        message:
          "is required unless pkceEnabled is true: at least one of clientSecret or pkceEnabled must be set",
      });
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
  "oidc.groupsClaim",
  "oidc.pkceEnabled",
  // Immutable, yet a mask may name it: restating the current rule is a no-op, another rule is code 3.
  "oidc.correlationRule",
] as const;
