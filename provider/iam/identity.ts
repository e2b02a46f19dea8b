import type * as pulumi from "@pulumi/pulumi";
import { IrvResource } from "../resource/index.js";

/**
 * Which workload tokens may assume an identity: the token's issuer and subject, each exactly or by
 * an anchored regular expression, optionally its audience and other claims.
 *
 * @example
 * const claimMatch: irv.iam.ClaimMatchArgs = {
 *   issuer: "https://token.actions.githubusercontent.com",
 *   subjectPattern: "repo:acme/app:ref:refs/heads/(main|release-.*)",
 * };
 */
export interface ClaimMatchArgs {
  /** The token issuer, an https URL (e.g. `https://token.actions.githubusercontent.com`). */
  issuer?: pulumi.Input<string>;
  /** Instead of `issuer`: a pattern the issuer must match. */
  issuerPattern?: pulumi.Input<string>;
  /** The token subject (e.g. `repo:acme/app:ref:refs/heads/main`). */
  subject?: pulumi.Input<string>;
  /** Instead of `subject`: a pattern the subject must match (anchored: the whole subject). */
  subjectPattern?: pulumi.Input<string>;
  /** One of the token's audiences; by default the service's own. */
  audience?: pulumi.Input<string>;
  audiencePattern?: pulumi.Input<string>;
  /** Other claims the token must carry with exactly these values. */
  claims?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** Other claims the token must carry, matching these patterns. */
  claimPatterns?: pulumi.Input<Record<string, pulumi.Input<string>>>;
}

/**
 * An AWS role or user that may assume an identity: the account, then exactly one of `arn` and
 * `arnPattern` and exactly one of `userId` and `userIdPattern` (as AWS `GetCallerIdentity` returns
 * them). 0.x called these `awsArn`, `awsArnPattern`, `awsUserId`, `awsUserIdPattern`.
 *
 * @example
 * const awsIdentity: irv.iam.AwsIdentityArgs = {
 *   awsAccount: "123456789012",
 *   arnPattern: "arn:aws:sts::123456789012:assumed-role/deployer/.*",
 *   userIdPattern: "AROA[A-Z0-9]+:.*",
 * };
 */
export interface AwsIdentityArgs {
  /** The 12-digit account id. */
  awsAccount: pulumi.Input<string>;
  /** The exact ARN. */
  arn?: pulumi.Input<string>;
  /** Instead of `arn`: a pattern the ARN must match (anchored). */
  arnPattern?: pulumi.Input<string>;
  /** The exact user id. */
  userId?: pulumi.Input<string>;
  /** Instead of `userId`: a pattern the user id must match (anchored). */
  userIdPattern?: pulumi.Input<string>;
}

/**
 * Static keys: tokens of an issuer the service cannot reach, checked against its public keys.
 * 0.x called this `static`, with a required `expiration`.
 *
 * @example
 * const staticKeys: irv.iam.StaticKeysArgs = {
 *   issuer: "https://ci.internal.example",
 *   subject: "deployer",
 *   issuerKeys: JSON.stringify({ keys: [publicJwk] }),
 *   expirationTime: "2027-06-01T00:00:00Z",
 * };
 */
export interface StaticKeysArgs {
  issuer: pulumi.Input<string>;
  subject: pulumi.Input<string>;
  /** The issuer's JWKS as JSON text, public keys only. Pass a `pulumi.secret` to keep it secret in state. */
  issuerKeys: pulumi.Input<string>;
  /**
   * RFC 3339 time after which the keys are no longer accepted: at most 365 days after the
   * identity's creation, which is also the service's default (then an output, never a diff).
   */
  expirationTime?: pulumi.Input<string>;
  /** The one audience the tokens must carry instead of the service's own (the service takes one for now). */
  audiences?: pulumi.Input<pulumi.Input<string>[]>;
}

/**
 * Arguments of {@link Identity}: exactly one of `claimMatch`, `staticKeys`, `awsIdentity` and
 * `servicePrincipal` (checked at preview).
 *
 * @example
 * const args: irv.iam.IdentityArgs = { groupUid: teamA.uid, description: "CI of team A", claimMatch };
 * const ci = new irv.iam.Identity("ci", args);
 */
export interface IdentityArgs {
  /** Uid of the group the identity belongs to. Changing it replaces the identity. */
  groupUid: pulumi.Input<string>;
  /** Defaults to the resource's logical name. */
  name?: pulumi.Input<string>;
  description?: pulumi.Input<string>;
  /** OIDC workload tokens (GitHub Actions, GitLab, Kubernetes, …). */
  claimMatch?: pulumi.Input<ClaimMatchArgs>;
  /** Tokens of an unreachable issuer, checked against its keys. */
  staticKeys?: pulumi.Input<StaticKeysArgs>;
  /** An AWS role or user. */
  awsIdentity?: pulumi.Input<AwsIdentityArgs>;
  /**
   * One of the service's own principals, by its published name: `SERVICE_PRINCIPAL_COSIGNED`,
   * `SERVICE_PRINCIPAL_INGESTER`, `SERVICE_PRINCIPAL_CATALOG_SYNCER`, … (the `SERVICE_PRINCIPALS`
   * list of `pulumi-irv/sdk`).
   */
  servicePrincipal?: pulumi.Input<string>;
}

/**
 * An identity that workloads assume (`pulumi-nodejs:dynamic/irv:Identity`). Switching from one
 * variant to another is an update in place.
 *
 * @example
 * const ci = new irv.iam.Identity("team-a-ci", {
 *   groupUid: teamA.uid,
 *   claimMatch: {
 *     issuer: "https://token.actions.githubusercontent.com",
 *     subjectPattern: "repo:acme/team-a:ref:refs/heads/.*",
 *   },
 * });
 */
export class Identity extends IrvResource {
  declare readonly groupUid: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly description: pulumi.Output<string | undefined>;
  declare readonly claimMatch: pulumi.Output<Record<string, unknown> | undefined>;
  declare readonly staticKeys: pulumi.Output<Record<string, unknown> | undefined>;
  declare readonly awsIdentity: pulumi.Output<Record<string, string> | undefined>;
  declare readonly servicePrincipal: pulumi.Output<string | undefined>;
  /** When a token last assumed the identity. */
  declare readonly lastSeenTime: pulumi.Output<string | undefined>;
  declare readonly createTime: pulumi.Output<string>;
  declare readonly updateTime: pulumi.Output<string>;

  constructor(name: string, args: IdentityArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "Identity",
      name,
      {
        groupUid: args.groupUid,
        name: args.name ?? name,
        description: args.description,
        claimMatch: args.claimMatch,
        staticKeys: args.staticKeys,
        awsIdentity: args.awsIdentity,
        servicePrincipal: args.servicePrincipal,
        // 0.x's name of staticKeys, untyped since 0.2: passed on when a program still writes it, so
        // that the provider's check names its new name (issue 34: dropped here, preview said only
        // "exactly one of claimMatch, staticKeys, … got none").
        ...legacyStatic(args),
      },
      ["lastSeenTime", "createTime", "updateTime"],
      opts,
    );
  }
}

function legacyStatic(args: IdentityArgs): { static?: unknown } {
  const legacy: unknown = (args as { static?: unknown }).static;
  return legacy === undefined ? {} : { static: legacy };
}
