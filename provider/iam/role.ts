import type * as pulumi from "@pulumi/pulumi";
import { IrvResource } from "../resource/index.js";

/**
 * Arguments of {@link Role}.
 *
 * @example
 * const args: irv.iam.RoleArgs = { parentUid: platform.uid, capabilities: ["groups.list", "identity.list"] };
 * const auditor = new irv.iam.Role("auditor", args);
 */
export interface RoleArgs {
  /** The group the role is defined in; it can be bound there and below. Changing it replaces the role. */
  parentUid: pulumi.Input<string>;
  /** Defaults to the resource's logical name. */
  name?: pulumi.Input<string>;
  description?: pulumi.Input<string>;
  /**
   * Capability names (`<family>.<verb>`, see `CAPABILITIES` of `pulumi-irv/sdk`), checked at
   * preview. Order and repetition do not matter.
   */
  capabilities: pulumi.Input<pulumi.Input<string>[]>;
}

/**
 * A custom role: a named set of capabilities (`pulumi-nodejs:dynamic/irv:Role`).
 *
 * @example
 * const auditor = new irv.iam.Role("auditor", {
 *   parentUid: platform.uid,
 *   description: "Reads the tree",
 *   capabilities: ["groups.list", "identity.list", "role_bindings.list"],
 * });
 * new irv.iam.RoleBinding("ci-auditor", { groupUid: platform.uid, identityUid: ci.uid, roleUid: auditor.uid });
 */
export class Role extends IrvResource {
  declare readonly parentUid: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly description: pulumi.Output<string | undefined>;
  /** Sorted, once each. */
  declare readonly capabilities: pulumi.Output<string[]>;
  declare readonly createTime: pulumi.Output<string>;
  declare readonly updateTime: pulumi.Output<string>;

  constructor(name: string, args: RoleArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "Role",
      name,
      {
        parentUid: args.parentUid,
        name: args.name ?? name,
        description: args.description,
        capabilities: args.capabilities,
      },
      ["createTime", "updateTime"],
      opts,
    );
  }
}
