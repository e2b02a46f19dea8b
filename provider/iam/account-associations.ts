import type * as pulumi from "@pulumi/pulumi";
import { IrvResource } from "../resource/index.js";

/**
 * Arguments of {@link AccountAssociations}: at least one provider block.
 *
 * @example
 * const args: irv.iam.AccountAssociationsArgs = {
 *   groupUid: platform.uid,
 *   amazon: { account: "123456789012" },
 *   github: { installations: [{ id: 4242 }] },
 * };
 */
export interface AccountAssociationsArgs {
  groupUid: pulumi.Input<string>;
  /** Defaults to the resource's logical name. */
  name?: pulumi.Input<string>;
  description?: pulumi.Input<string>;
  amazon?: pulumi.Input<{ account: pulumi.Input<string> }>;
  google?: pulumi.Input<{ projectId: pulumi.Input<string>; projectNumber: pulumi.Input<string> }>;
  azure?: pulumi.Input<{ tenantId: pulumi.Input<string>; clientIds: pulumi.Input<Record<string, string>> }>;
  github?: pulumi.Input<{ installations: pulumi.Input<{ id: string | number; [key: string]: unknown }[]> }>;
  chainguard?: pulumi.Input<{ serviceBindings: pulumi.Input<Record<string, string>> }>;
}

/**
 * The cloud accounts a group is associated with (`pulumi-nodejs:dynamic/irv:AccountAssociations`).
 * Each block changes in place; removing a block clears it on the server.
 *
 * @example
 * new irv.iam.AccountAssociations("platform-accounts", {
 *   groupUid: platform.uid,
 *   amazon: { account: "123456789012" },
 * });
 */
export class AccountAssociations extends IrvResource {
  declare readonly groupUid: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly description: pulumi.Output<string | undefined>;
  declare readonly amazon: pulumi.Output<{ account: string } | undefined>;
  declare readonly google: pulumi.Output<{ projectId: string; projectNumber: string } | undefined>;
  declare readonly azure: pulumi.Output<{ tenantId: string; clientIds: Record<string, string> } | undefined>;
  declare readonly github: pulumi.Output<{ installations: { id: string | number }[] } | undefined>;
  declare readonly chainguard: pulumi.Output<{ serviceBindings: Record<string, string> } | undefined>;
  declare readonly createTime: pulumi.Output<string>;
  declare readonly updateTime: pulumi.Output<string>;

  constructor(name: string, args: AccountAssociationsArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "AccountAssociations",
      name,
      {
        groupUid: args.groupUid,
        name: args.name ?? name,
        description: args.description,
        amazon: args.amazon,
        google: args.google,
        azure: args.azure,
        github: args.github,
        chainguard: args.chainguard,
      },
      ["createTime", "updateTime"],
      opts,
    );
  }
}
