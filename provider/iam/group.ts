import type * as pulumi from "@pulumi/pulumi";
import { IrvResource } from "../resource/index.js";

/**
 * Arguments of {@link Group}.
 *
 * @example
 * const args: irv.iam.GroupArgs = { parentUid: orgUid, description: "Platform team" };
 * const platform = new irv.iam.Group("platform", args); // name defaults to "platform"
 */
export interface GroupArgs {
  /** Uid of the parent group; the organization uid for a top-level group. Changing it replaces the group. */
  parentUid: pulumi.Input<string>;
  /** Group name, matching `^[a-z0-9 ._-]{1,}$`. Defaults to the resource's logical name. */
  name?: pulumi.Input<string>;
  description?: pulumi.Input<string>;
}

/**
 * A group of the organization tree (`pulumi-nodejs:dynamic/irv:Group`).
 *
 * @example
 * import * as irv from "pulumi-irv";
 * const platform = new irv.iam.Group("platform", { parentUid: orgUid, description: "Platform team" });
 * const teamA = new irv.iam.Group("team-a", { parentUid: platform.uid });
 */
export class Group extends IrvResource {
  /** The group's uid (its id): its parent's uid, `/`, 16 hex digits. */
  declare readonly uid: pulumi.Output<string>;
  declare readonly parentUid: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly description: pulumi.Output<string | undefined>;
  declare readonly verified: pulumi.Output<boolean>;
  declare readonly resourceLimits: pulumi.Output<{ clusters?: number; idps?: number; repositories?: number }>;
  declare readonly createTime: pulumi.Output<string>;
  declare readonly updateTime: pulumi.Output<string>;

  constructor(name: string, args: GroupArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "Group",
      name,
      { parentUid: args.parentUid, name: args.name ?? name, description: args.description },
      ["verified", "resourceLimits", "createTime", "updateTime"],
      opts,
    );
  }
}
