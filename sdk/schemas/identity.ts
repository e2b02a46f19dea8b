import { z } from "zod";
import { describePatternProblem } from "../patterns/index.js";
import { OptionalString, OptionalTimestamp, optionalMessage, Timestamp, Uid } from "./common.js";
import { ServicePrincipal, ServicePrincipalRead } from "./service-principal.js";

/**
 * An anchored RE2 pattern (the whole value must match, as `^(?:…)$` would; Go regular expression
 * syntax, as the service parses it), refused with RE2's reason and the character where it fails.
 *
 * @example
 * Pattern.safeParse("(?i)repo:acme/.*").success; // true
 * Pattern.safeParse("repo:(?=acme)").success;    // false: look-ahead is not RE2
 */
export const Pattern = z
  .string()
  .min(1, { message: "must not be empty" })
  // The STS runs these on every exchange: a bound keeps a hostile pattern's cost bounded too.
  .max(1024, { message: "must be at most 1024 characters" })
  .superRefine((source, ctx) => {
    const problem = describePatternProblem(source);
    if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem, input: source });
  });

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
 * (string) values and `claimPatterns` must match. Patterns are anchored RE2 patterns (`sdk/patterns`).
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
 * An AWS role or user that may assume the identity (`AWSIdentity`, `iam/v2beta1/identities.proto:290-309`):
 * the account, and the ARN and user id each exactly or by pattern. Stored and returned; the
 * emulator cannot verify AWS signatures, so its STS refuses these exchanges (see docs/emulator.md).
 *
 * @example
 * AwsIdentity.parse({ awsAccount: "123456789012", arnPattern: "arn:aws:sts::123456789012:assumed-role/ci/.*", userIdPattern: "AROA.*" });
 */
export const AwsIdentity = z
  .object({
    awsAccount: z.string().regex(/^\d{12}$/, { message: "must be a 12-digit AWS account id" }),
    arn: nonEmpty.optional(),
    arnPattern: Pattern.optional(),
    userId: nonEmpty.optional(),
    userIdPattern: Pattern.optional(),
  })
  .superRefine((a, ctx) => {
    oneOf(ctx, a, ["arn", "arnPattern"], true);
    oneOf(ctx, a, ["userId", "userIdPattern"], true);
  });
/**
 * An AWS principal that may assume an identity.
 *
 * @example
 * const aws: AwsIdentity = { awsAccount: "123456789012", arn: "arn:aws:iam::123456789012:role/ci", userId: "AROA…" };
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
 * How long static keys may be trusted: "Defaults to / Maximum of 365 days after creation"
 * (`iam/v2beta1/identities.proto:276-278`).
 *
 * @example
 * Date.parse(identity.staticKeys.expirationTime) - Date.parse(identity.createTime) <= MAX_STATIC_KEYS_LIFETIME_MS; // true
 */
export const MAX_STATIC_KEYS_LIFETIME_MS = 365 * 86_400_000;

/**
 * Static keys (`StaticKeys`, `iam/v2beta1/identities.proto:264-287`): tokens with this issuer and
 * subject, signed by one of `issuerKeys` (a JWKS as JSON text, public keys only), are accepted
 * until `expirationTime` (optional: the service sets creation + 365 days, also the latest it
 * accepts). `audiences`, when given, replaces the STS's own audience; the service takes exactly one
 * value for now. For issuers the STS cannot reach.
 *
 * @example
 * StaticKeys.parse({ issuer: "https://ci.internal", subject: "deployer", issuerKeys: JSON.stringify({ keys: [jwk] }), expirationTime: "2027-01-01T00:00:00Z" });
 */
export const StaticKeys = z.object({
  issuer: nonEmpty,
  subject: nonEmpty,
  issuerKeys: z.string().refine(isJwks, {
    message: 'must be a JWKS of public keys as JSON text: {"keys": [{"kty": …}, …]}',
  }),
  expirationTime: Timestamp.optional(),
  // "Currently only a single audience is supported — callers must specify exactly one value"
  // (identities.proto:284-285): none (the STS's own) or one.
  audiences: z
    .array(nonEmpty)
    .max(1, { message: "takes at most one audience (the service supports a single one for now)" })
    .optional(),
});
/**
 * Static keys, as written.
 *
 * @example
 * const s: StaticKeys = { issuer, subject, issuerKeys: JSON.stringify(jwks), expirationTime };
 */
export type StaticKeys = z.infer<typeof StaticKeys>;

// Reads take what the service writes, without the write rules: a pattern in the service's regex
// dialect may not compile here, and a later service may relax a rule. proto3 maps and lists have
// no presence, so `{}`/`[]` (protojson EmitUnpopulated) read as absent, like "" strings. Each
// reader ends in `.optional()` so that its key is optional in the type, as absent on the wire.
const emptyAsAbsent = <T extends z.ZodType>(schema: T) =>
  schema
    .nullish()
    .transform((v) => {
      if (v == null) return undefined;
      if (Array.isArray(v) ? v.length === 0 : Object.keys(v as object).length === 0) return undefined;
      return v as z.output<T>;
    })
    .optional();
const Text = OptionalString.optional();
// What reads as absent is left out, not kept as a key holding `undefined`: the Pulumi engine's
// property maps cannot carry `undefined` ("Unexpected struct type"), and `in` tells the truth.
const compact = <T extends z.ZodType>(schema: T) =>
  schema.transform(
    (v) => Object.fromEntries(Object.entries(v as object).filter(([, x]) => x !== undefined)) as z.output<T>,
  );
const StringMap = emptyAsAbsent(z.record(z.string(), z.string()));

const ClaimMatchRead = compact(
  z.object({
    issuer: Text,
    issuerPattern: Text,
    subject: Text,
    subjectPattern: Text,
    audience: Text,
    audiencePattern: Text,
    claims: StringMap,
    claimPatterns: StringMap,
  }),
);
const AwsIdentityRead = compact(
  z.object({
    awsAccount: z.string(),
    arn: Text,
    arnPattern: Text,
    userId: Text,
    userIdPattern: Text,
  }),
);
const StaticKeysRead = compact(
  z.object({
    issuer: z.string(),
    subject: z.string(),
    issuerKeys: z.string(),
    expirationTime: OptionalTimestamp.optional(),
    audiences: emptyAsAbsent(z.array(z.string())),
  }),
);

/**
 * The fields that decide who may assume an identity (the `relationship` oneof,
 * `iam/v2beta1/identities.proto:216-228`): exactly one of them is set.
 *
 * @example
 * IDENTITY_VARIANTS.filter((v) => identity[v] !== undefined); // ["claimMatch"]
 */
export const IDENTITY_VARIANTS = ["claimMatch", "staticKeys", "awsIdentity", "servicePrincipal"] as const;

const exactlyOneVariant = (i: Record<string, unknown>, ctx: z.RefinementCtx) =>
  oneOf(ctx, i, IDENTITY_VARIANTS, true);

/**
 * An identity that workloads (or the service) may assume, as the service answers it
 * (`iam/v2beta1/identities.proto:171-228`), read leniently: an unset `lastSeenTime` (`null`), an
 * empty description, empty maps and lists read as absent; a service principal this client does not
 * know yet is kept as its name.
 *
 * @example
 * const id: Identity = Identity.parse(body);
 */
export const Identity = compact(
  z.object({
    uid: Uid,
    name: z.string(),
    description: Text,
    claimMatch: optionalMessage(ClaimMatchRead).optional(),
    staticKeys: optionalMessage(StaticKeysRead).optional(),
    awsIdentity: optionalMessage(AwsIdentityRead).optional(),
    servicePrincipal: ServicePrincipalRead.nullish()
      .transform((v) => v ?? undefined)
      .optional(),
    lastSeenTime: OptionalTimestamp.optional(),
    createTime: Timestamp,
    updateTime: Timestamp,
  }),
);
/**
 * An identity that workloads may assume.
 *
 * @example
 * const id: Identity = await client.identities.get(uid);
 */
export type Identity = z.infer<typeof Identity>;

/**
 * Body of `POST /iam/v2beta1/identities/<group_uid>`: a name and exactly one of `claimMatch`,
 * `staticKeys`, `awsIdentity`, `servicePrincipal`.
 *
 * @example
 * IdentityCreate.parse({ name: "ci", claimMatch: { issuer: "https://issuer.example", subject: "ci" } });
 */
export const IdentityCreate = z
  .object({
    name: z.string().min(1, { message: "is required" }),
    description: z.string().optional(),
    claimMatch: ClaimMatch.optional(),
    staticKeys: StaticKeys.optional(),
    awsIdentity: AwsIdentity.optional(),
    servicePrincipal: ServicePrincipal.optional(),
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
  "staticKeys",
  ...Object.keys(StaticKeys.shape).map((k) => `staticKeys.${k}`),
  "awsIdentity",
  ...Object.keys(AwsIdentity.shape).map((k) => `awsIdentity.${k}`),
  "servicePrincipal",
] as const;
