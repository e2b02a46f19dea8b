import * as pulumi from "@pulumi/pulumi";
import { IrvResource } from "../resource/index.js";

/**
 * The OIDC settings of an {@link IdentityProvider}.
 *
 * @example
 * const oidc: irv.iam.OidcArgs = {
 *   issuer: "https://accounts.google.com",
 *   clientId: "1234.apps.googleusercontent.com",
 *   clientSecret: config.requireSecret("googleClientSecret"),
 * };
 */
export interface OidcArgs {
  /** An https URL. */
  issuer: pulumi.Input<string>;
  clientId: pulumi.Input<string>;
  /**
   * The secret of a confidential client: always stored as a Pulumi secret. The API never returns
   * it: refresh keeps the declared value. A public client leaves it out and sets `pkceEnabled`: at
   * least one of the two is required. Removing it clears the stored secret (one PATCH).
   */
  clientSecret?: pulumi.Input<string>;
  additionalScopes?: pulumi.Input<pulumi.Input<string>[]>;
  /** The token claim that carries the user's group memberships (`groups` for Entra ID); none: no group extraction. */
  groupsClaim?: pulumi.Input<string>;
  /** Whether logins use PKCE (RFC 7636); required for a public client, which has no secret. */
  pkceEnabled?: pulumi.Input<boolean>;
  /**
   * How a login is matched to a SCIM-provisioned user: `CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID`
   * (the default: `sub` equals the SCIM externalId) or `CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID`
   * (Entra ID's `oid`). Immutable: changing it replaces the identity provider.
   */
  correlationRule?: pulumi.Input<CorrelationRule>;
}

/**
 * A correlation rule of {@link OidcArgs}, by its published name.
 *
 * @example
 * const rule: irv.iam.CorrelationRule = "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID";
 */
export type CorrelationRule =
  | "CORRELATION_RULE_UNSPECIFIED"
  | "CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID"
  | "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID";

/**
 * Arguments of {@link IdentityProvider}.
 *
 * @example
 * const args: irv.iam.IdentityProviderArgs = { parentUid: platform.uid, defaultRoleUid: viewer.uid, oidc };
 */
export interface IdentityProviderArgs {
  /** The group whose users log in through it. Changing it replaces the identity provider. */
  parentUid: pulumi.Input<string>;
  /** Defaults to the resource's logical name. */
  name?: pulumi.Input<string>;
  description?: pulumi.Input<string>;
  /** The role users get at their first login. */
  defaultRoleUid: pulumi.Input<string>;
  oidc: OidcArgs;
}

/**
 * A group's own OIDC login (`pulumi-nodejs:dynamic/irv:IdentityProvider`). `oidc.clientSecret` is a
 * secret in state; since the API never returns it, refresh keeps the declared value, and a rotated
 * secret is one PATCH of `oidc.clientSecret`.
 *
 * @example
 * const sso = new irv.iam.IdentityProvider("sso", {
 *   parentUid: platform.uid,
 *   defaultRoleUid: irv.iam.getRoleOutput({ name: "viewer" }).uid,
 *   oidc: {
 *     issuer: "https://login.example.com",
 *     clientId: "irv",
 *     clientSecret: config.requireSecret("ssoClientSecret"),
 *   },
 * });
 */
export class IdentityProvider extends IrvResource {
  declare readonly parentUid: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly description: pulumi.Output<string | undefined>;
  declare readonly defaultRoleUid: pulumi.Output<string>;
  declare readonly oidc: pulumi.Output<{
    issuer: string;
    clientId: string;
    clientSecret?: string;
    additionalScopes: string[];
    groupsClaim?: string;
    pkceEnabled?: boolean;
    correlationRule?: CorrelationRule;
  }>;
  declare readonly createTime: pulumi.Output<string>;
  declare readonly updateTime: pulumi.Output<string>;

  constructor(name: string, args: IdentityProviderArgs, opts?: pulumi.CustomResourceOptions) {
    // The secret alone is wrapped, so the issuer and client id stay readable (policies check them).
    const oidc = args.oidc && {
      ...args.oidc,
      ...(args.oidc.clientSecret === undefined
        ? {}
        : { clientSecret: pulumi.secret(args.oidc.clientSecret) }),
    };
    super(
      "IdentityProvider",
      name,
      {
        parentUid: args.parentUid,
        name: args.name ?? name,
        description: args.description,
        defaultRoleUid: args.defaultRoleUid,
        oidc,
      },
      ["createTime", "updateTime"],
      opts,
    );
  }
}
