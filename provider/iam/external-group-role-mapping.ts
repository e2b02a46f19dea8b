import type * as pulumi from "@pulumi/pulumi";
import { IrvResource } from "../resource/index.js";

/**
 * Arguments of {@link ExternalGroupRoleMapping}.
 *
 * @example
 * const args: irv.iam.ExternalGroupRoleMappingArgs = { identityProviderUid: okta.uid, externalGroupId: "platform-admins", roleUid: viewer.uid };
 * new irv.iam.ExternalGroupRoleMapping("platform-admins", args);
 */
export interface ExternalGroupRoleMappingArgs {
  /** The identity provider whose users' external groups are mapped. */
  identityProviderUid: pulumi.Input<string>;
  /** The external group, as the identity provider's groups claim names it. */
  externalGroupId: pulumi.Input<string>;
  /** The role everyone in the group holds (see {@link getRole}). */
  roleUid: pulumi.Input<string>;
  /**
   * The group the role is held in. The service holds it to the organization root for now, which is
   * the default (the first 40 hex digits of the identity provider's uid).
   */
  scope?: pulumi.Input<string>;
}

/**
 * Everyone in an identity provider's external group holds a role
 * (`pulumi-nodejs:dynamic/irv:ExternalGroupRoleMapping`): a grant, as a role binding is. Immutable:
 * any change replaces it. Creating one needs both `identity_providers.create` and
 * `role_bindings.create`.
 *
 * @example
 * const viewer = irv.iam.getRoleOutput({ name: "viewer" });
 * new irv.iam.ExternalGroupRoleMapping("okta-viewers", { identityProviderUid: okta.uid, externalGroupId: "viewers", roleUid: viewer.uid });
 */
export class ExternalGroupRoleMapping extends IrvResource {
  declare readonly identityProviderUid: pulumi.Output<string>;
  declare readonly externalGroupId: pulumi.Output<string>;
  declare readonly roleUid: pulumi.Output<string>;
  declare readonly scope: pulumi.Output<string>;
  declare readonly createTime: pulumi.Output<string | undefined>;

  constructor(name: string, args: ExternalGroupRoleMappingArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "ExternalGroupRoleMapping",
      name,
      {
        identityProviderUid: args.identityProviderUid,
        externalGroupId: args.externalGroupId,
        roleUid: args.roleUid,
        scope: args.scope,
      },
      ["createTime"],
      opts,
    );
  }
}
