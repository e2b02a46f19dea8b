import { z } from "zod";
import { Timestamp, Uid } from "./common.js";

// A pattern is an anchored regular expression (the whole value must match); one that does not
// compile is refused on write with the field named.
const compiles = (source: string): boolean => {
  try {
    new RegExp(`^(?:${source})$`, "u");
    return true;
  } catch {
    return false;
  }
};

/**
 * An anchored regular expression (`^(?:…)$` is implied), refused when it does not compile.
 *
 * @example
 * Pattern.safeParse("repo:acme/.*").success; // true
 * Pattern.safeParse("repo:(").success;        // false: does not compile
 */
export const Pattern = z
  .string()
  .min(1, { message: "must not be empty" })
  // The STS runs these on every exchange: a bound keeps a hostile pattern's cost bounded too.
  .max(1024, { message: "must be at most 1024 characters" })
  .refine(compiles, { message: "is not a valid regular expression" });

/**
 * Whether `value` matches an anchored pattern.
 *
 * @example
 * matchesPattern("repo:acme/.*", "repo:acme/app:ref:refs/heads/main"); // true
 */
export function matchesPattern(pattern: string, value: string): boolean {
  return new RegExp(`^(?:${pattern})$`, "u").test(value);
}

const oneOf = (
  ctx: z.RefinementCtx,
  obj: Record<string, unknown>,
  keys: readonly string[],
  required: boolean,
  path: readonly string[] = [],
) => {
  const present = keys.filter((k) => obj[k] !== undefined);
  if (present.length > 1 || (required && present.length === 0)) {
    const field = [...path, present[1] ?? keys[0] ?? ""];
    ctx.addIssue({
      code: "custom",
      path: field,
      message: `exactly one of ${keys.join(", ")} ${required ? "is required" : "may be given"}${present.length > 1 ? ` (got ${present.join(" and ")})` : ""}`,
    });
  }
};

const nonEmpty = z.string().min(1, { message: "is required" });

/**
 * Which workload tokens may assume an identity: the token's `iss` must equal `issuer` or match
 * `issuerPattern`, its `sub` likewise, and, when given, one of its `aud` values `audience` or
 * `audiencePattern` (otherwise the STS's own audience); `claims` must be carried with exactly these
 * (string) values and `claimPatterns` must match. Patterns are anchored regular expressions.
 *
 * @example
 * ClaimMatch.parse({ issuer: "https://token.actions.githubusercontent.com", subjectPattern: "repo:acme/.*" });
 */
export const ClaimMatch = z
  .object({
    issuer: nonEmpty.optional(),
    issuerPattern: Pattern.optional(),
    subject: nonEmpty.optional(),
    subjectPattern: Pattern.optional(),
    audience: nonEmpty.optional(),
    audiencePattern: Pattern.optional(),
    claims: z.record(z.string(), z.string()).optional(),
    claimPatterns: z.record(z.string(), Pattern).optional(),
  })
  .superRefine((m, ctx) => {
    oneOf(ctx, m, ["issuer", "issuerPattern"], true);
    oneOf(ctx, m, ["subject", "subjectPattern"], true);
    oneOf(ctx, m, ["audience", "audiencePattern"], false);
  });
/**
 * Which workload tokens may assume an identity.
 *
 * @example
 * const match: ClaimMatch = {
 *   issuer: "https://token.actions.githubusercontent.com",
 *   subject: "repo:acme/app:ref:refs/heads/main",
 * };
 */
export type ClaimMatch = z.infer<typeof ClaimMatch>;

/**
 * An AWS role or user that may assume the identity: the account, and the ARN and user id each
 * exactly or by pattern. Stored and returned; the emulator cannot verify AWS signatures, so its
 * STS refuses these exchanges (see docs/emulator.md).
 *
 * @example
 * AwsIdentity.parse({ awsAccount: "123456789012", awsArnPattern: "arn:aws:sts::123456789012:assumed-role/ci/.*", awsUserIdPattern: ".*" });
 */
export const AwsIdentity = z
  .object({
    awsAccount: z.string().regex(/^\d{12}$/, { message: "must be a 12-digit AWS account id" }),
    awsArn: nonEmpty.optional(),
    awsArnPattern: Pattern.optional(),
    awsUserId: nonEmpty.optional(),
    awsUserIdPattern: Pattern.optional(),
  })
  .superRefine((a, ctx) => {
    oneOf(ctx, a, ["awsArn", "awsArnPattern"], true);
    oneOf(ctx, a, ["awsUserId", "awsUserIdPattern"], true);
  });
/**
 * An AWS principal that may assume an identity.
 *
 * @example
 * const aws: AwsIdentity = { awsAccount: "123456789012", awsArn: "arn:aws:iam::123456789012:role/ci", awsUserId: "AROA…" };
 */
export type AwsIdentity = z.infer<typeof AwsIdentity>;

const isJwks = (text: string): boolean => {
  try {
    const v = JSON.parse(text) as { keys?: unknown };
    return (
      Array.isArray(v.keys) &&
      v.keys.length > 0 &&
      // Public keys only: a JWK with a private part (`d`) is a credential, and this field is returned.
      v.keys.every(
        (k) =>
          typeof k === "object" &&
          k !== null &&
          typeof (k as { kty?: unknown }).kty === "string" &&
          !("d" in k),
      )
    );
  } catch {
    return false;
  }
};

/**
 * A static identity: tokens with this issuer and subject, signed by one of `issuerKeys` (a JWKS as
 * JSON text, public keys only), are accepted until `expiration`. For issuers the STS cannot reach.
 *
 * @example
 * StaticIdentity.parse({ issuer: "https://ci.internal", subject: "deployer", issuerKeys: JSON.stringify({ keys: [jwk] }), expiration: "2027-01-01T00:00:00Z" });
 */
export const StaticIdentity = z.object({
  issuer: nonEmpty,
  subject: nonEmpty,
  issuerKeys: z.string().refine(isJwks, {
    message: 'must be a JWKS of public keys as JSON text: {"keys": [{"kty": …}, …]}',
  }),
  expiration: Timestamp,
});
/**
 * A static identity.
 *
 * @example
 * const s: StaticIdentity = { issuer, subject, issuerKeys: JSON.stringify(jwks), expiration };
 */
export type StaticIdentity = z.infer<typeof StaticIdentity>;

/**
 * The service's own principals an identity can stand for (assumed by the service, not by workloads).
 *
 * @example
 * ServicePrincipal.parse("REGISTRY");
 */
export const ServicePrincipal = z.enum([
  "REGISTRY",
  "INGESTER",
  "COSIGNED",
  "CATALOG_SYNCER",
  "APKO_BUILDER",
]);
/**
 * One of the service's own principals.
 *
 * @example
 * const p: ServicePrincipal = "INGESTER";
 */
export type ServicePrincipal = z.infer<typeof ServicePrincipal>;

/**
 * The fields that decide who may assume an identity: exactly one of them is set.
 *
 * @example
 * IDENTITY_VARIANTS.filter((v) => v in identity); // ["claimMatch"]
 */
export const IDENTITY_VARIANTS = ["claimMatch", "awsIdentity", "static", "servicePrincipal"] as const;

const variantFields = {
  claimMatch: ClaimMatch.optional(),
  awsIdentity: AwsIdentity.optional(),
  static: StaticIdentity.optional(),
  servicePrincipal: ServicePrincipal.optional(),
};
const exactlyOneVariant = (i: Record<string, unknown>, ctx: z.RefinementCtx) =>
  oneOf(ctx, i, IDENTITY_VARIANTS, true);

/**
 * An identity that workloads (or the service) may assume.
 *
 * @example
 * const id: Identity = Identity.parse(body);
 */
export const Identity = z.object({
  uid: Uid,
  name: z.string(),
  description: z.string().optional(),
  ...variantFields,
  lastSeenTime: Timestamp.optional(),
  createTime: Timestamp,
  updateTime: Timestamp,
});
/**
 * An identity that workloads may assume.
 *
 * @example
 * const id: Identity = await client.identities.get(uid);
 */
export type Identity = z.infer<typeof Identity>;

/**
 * Body of `POST /iam/v2beta1/identities/<group_uid>`: a name and exactly one of `claimMatch`,
 * `awsIdentity`, `static`, `servicePrincipal`.
 *
 * @example
 * IdentityCreate.parse({ name: "ci", claimMatch: { issuer: "https://issuer.example", subject: "ci" } });
 */
export const IdentityCreate = z
  .object({
    name: z.string().min(1, { message: "is required" }),
    description: z.string().optional(),
    ...variantFields,
  })
  .superRefine(exactlyOneVariant);
/**
 * Body of an identity create.
 *
 * @example
 * const body: IdentityCreate = { name: "ci", claimMatch: { issuer, subject } };
 * await client.identities.create(teamUid, body);
 */
export type IdentityCreate = z.infer<typeof IdentityCreate>;

/**
 * The mutable fields of an identity, as PATCH paths (nested paths allowed under the variants).
 *
 * @example
 * IDENTITY_MUTABLE_FIELDS.includes("claimMatch.subject"); // true: one leaf can be masked alone
 */
export const IDENTITY_MUTABLE_FIELDS = [
  "name",
  "description",
  "claimMatch",
  ...Object.keys(ClaimMatch.shape).map((k) => `claimMatch.${k}`),
  "awsIdentity",
  ...Object.keys(AwsIdentity.shape).map((k) => `awsIdentity.${k}`),
  "static",
  ...Object.keys(StaticIdentity.shape).map((k) => `static.${k}`),
  "servicePrincipal",
] as const;
