import type * as pulumi from "@pulumi/pulumi";
import { IrvResource } from "../resource/index.js";

/**
 * The GitHub block: the installations of each GitHub App, keyed by the app id (published
 * `iam/account_associations.proto:217-236`). Installation ids are int64: write them as strings to
 * keep ids beyond 2^53 exact (numbers are accepted).
 *
 * @example
 * const gh: irv.iam.GitHubAssociation = {
 *   appInstallations: { "123456": { installations: [{ installationId: "4242", name: "acme" }] } },
 * };
 */
export interface GitHubAssociation {
  appInstallations: Record<string, { installations: { installationId: string | number; name?: string }[] }>;
}

/**
 * Arguments of {@link AccountAssociations}: the group (one association per group) and any provider
 * blocks.
 *
 * @example
 * const args: irv.iam.AccountAssociationsArgs = {
 *   groupUid: platform.uid,
 *   amazon: { account: "123456789012" },
 *   github: { appInstallations: { "123456": { installations: [{ installationId: "4242" }] } } },
 * };
 */
export interface AccountAssociationsArgs {
  /** The group whose association this is; the resource's id is this uid. Changing it replaces. */
  groupUid: pulumi.Input<string>;
  /** Defaults to the resource's logical name. */
  name?: pulumi.Input<string>;
  description?: pulumi.Input<string>;
  amazon?: pulumi.Input<{ account: pulumi.Input<string> }>;
  google?: pulumi.Input<{ projectId: pulumi.Input<string>; projectNumber: pulumi.Input<string> }>;
  azure?: pulumi.Input<{ tenantId: pulumi.Input<string>; clientIds: pulumi.Input<Record<string, string>> }>;
  github?: pulumi.Input<GitHubAssociation>;
  chainguard?: pulumi.Input<{ serviceBindings: pulumi.Input<Record<string, string>> }>;
}

/**
 * The cloud accounts a group is associated with (`pulumi-nodejs:dynamic/irv:AccountAssociations`).
 * A group has one association, named by the group's uid (`uid` and the id are `groupUid`); a second
 * one for the same group is refused with ALREADY_EXISTS. Each block changes in place; removing a
 * block clears it on the server.
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
  declare readonly github: pulumi.Output<
    | { appInstallations: Record<string, { installations: { installationId: string; name?: string }[] }> }
    | undefined
  >;
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
