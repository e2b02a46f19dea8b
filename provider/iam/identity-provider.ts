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
  /** Always stored as a Pulumi secret. The API never returns it: refresh keeps the declared value. */
  clientSecret: pulumi.Input<string>;
  additionalScopes?: pulumi.Input<pulumi.Input<string>[]>;
}

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
    clientSecret: string;
    additionalScopes: string[];
  }>;
  declare readonly createTime: pulumi.Output<string>;
  declare readonly updateTime: pulumi.Output<string>;

  constructor(name: string, args: IdentityProviderArgs, opts?: pulumi.CustomResourceOptions) {
    // The secret alone is wrapped, so the issuer and client id stay readable (policies check them).
    const oidc = args.oidc && { ...args.oidc, clientSecret: pulumi.secret(args.oidc.clientSecret) };
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
