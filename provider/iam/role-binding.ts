import type * as pulumi from "@pulumi/pulumi";
import { IrvResource } from "../resource/index.js";

/**
 * Arguments of {@link RoleBinding}.
 *
 * @example
 * const args: irv.iam.RoleBindingArgs = { groupUid: teamA.uid, identityUid: ci.uid, roleUid: viewer.uid };
 * new irv.iam.RoleBinding("ci-viewer", args);
 */
export interface RoleBindingArgs {
  /** The group in which the role is granted (and its descendants). Changing it replaces the binding. */
  groupUid: pulumi.Input<string>;
  /** The identity that gets the role. Changing it updates the binding in place (one PATCH). */
  identityUid: pulumi.Input<string>;
  /** The role (see {@link getRole}). Changed in place. */
  roleUid: pulumi.Input<string>;
}

/**
 * The identity a binding refers to, as the API returns it.
 *
 * @example
 * export const boundSubject = binding.identity.apply((i: irv.iam.BoundIdentity) => i.subject);
 */
export interface BoundIdentity {
  uid: string;
  name: string;
  description?: string;
  subject: string;
  issuer: string;
}

/**
 * A group or role a binding refers to.
 *
 * @example
 * export const boundRole = binding.role.apply((r: irv.iam.BoundRef) => r.name); // "viewer"
 */
export interface BoundRef {
  uid: string;
  name: string;
  description?: string;
}

/**
 * Grants a role to an identity within a group (`pulumi-nodejs:dynamic/irv:RoleBinding`). The
 * outputs carry the hydrated identity, group and role.
 *
 * @example
 * const viewer = irv.iam.getRoleOutput({ name: "viewer" });
 * new irv.iam.RoleBinding("team-a-ci-viewer", { groupUid: teamA.uid, identityUid: ci.uid, roleUid: viewer.uid });
 */
export class RoleBinding extends IrvResource {
  declare readonly groupUid: pulumi.Output<string>;
  declare readonly identityUid: pulumi.Output<string>;
  declare readonly roleUid: pulumi.Output<string>;
  declare readonly identity: pulumi.Output<BoundIdentity>;
  declare readonly group: pulumi.Output<BoundRef>;
  declare readonly role: pulumi.Output<BoundRef>;
  declare readonly createTime: pulumi.Output<string>;

  constructor(name: string, args: RoleBindingArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "RoleBinding",
      name,
      { groupUid: args.groupUid, identityUid: args.identityUid, roleUid: args.roleUid },
      ["identity", "group", "role", "createTime"],
      opts,
    );
  }
}
