import * as pulumi from "@pulumi/pulumi";
import { IrvResource } from "../resource/index.js";

/**
 * Arguments of {@link GroupInvite}: `roleUid` and `ttl`, as the published API takes them.
 *
 * @example
 * const args: irv.iam.GroupInviteArgs = { groupUid: teamA.uid, roleUid: viewer.uid, ttl: "168h" };
 */
export interface GroupInviteArgs {
  groupUid: pulumi.Input<string>;
  /** The role the invited user gets in the group. */
  roleUid: pulumi.Input<string>;
  /**
   * How long the invite stays valid from its create: `"168h"`, `"1h30m"` or `"604800s"` (hours,
   * minutes, seconds). Required unless the deprecated `expiration` is given.
   */
  ttl?: pulumi.Input<string>;
  /**
   * RFC 3339 time, turned into a `ttl` at the create.
   *
   * @deprecated since 0.2, removed in 0.3: write `ttl` (the published API takes a duration).
   */
  expiration?: pulumi.Input<string>;
  /** Only this address may accept the invite. */
  email?: pulumi.Input<string>;
  /** The code works once. */
  singleUse?: pulumi.Input<boolean>;
}

/**
 * An invitation to join a group with a role (`pulumi-nodejs:dynamic/irv:GroupInvite`), valid for
 * `ttl` from its create (read `expirationTime`). Every change replaces it. `code` is a secret output known from the create only: the API never shows it
 * again, so export it (as a secret) if someone needs it later.
 *
 * @example
 * const invite = new irv.iam.GroupInvite("new-dev", {
 *   groupUid: teamA.uid,
 *   roleUid: irv.iam.getRoleOutput({ name: "viewer" }).uid,
 *   ttl: "168h",
 *   email: "dev@example.com",
 *   singleUse: true,
 * });
 * export const inviteCode = invite.code; // a secret
 */
export class GroupInvite extends IrvResource {
  declare readonly groupUid: pulumi.Output<string>;
  declare readonly roleUid: pulumi.Output<string>;
  /** The role the invite grants, as the service shows it (absent once the role is deleted). */
  declare readonly role: pulumi.Output<
    { uid: string; name: string; description?: string; capabilities: string[] } | undefined
  >;
  /** When the invite expires: the create's time plus `ttl`. */
  declare readonly expirationTime: pulumi.Output<string>;
  declare readonly ttl: pulumi.Output<string | undefined>;
  /** @deprecated since 0.2: read `expirationTime`; this is the deprecated input, as given. */
  declare readonly expiration: pulumi.Output<string | undefined>;
  declare readonly email: pulumi.Output<string | undefined>;
  declare readonly singleUse: pulumi.Output<boolean | undefined>;
  /** The invite code, a secret; only known to the stack that created the invite. */
  declare readonly code: pulumi.Output<string | undefined>;
  declare readonly createTime: pulumi.Output<string>;

  constructor(name: string, args: GroupInviteArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "GroupInvite",
      name,
      {
        groupUid: args.groupUid,
        roleUid: args.roleUid,
        ttl: args.ttl,
        expiration: args.expiration,
        email: args.email,
        singleUse: args.singleUse,
        // A secret placeholder: the engine keeps an output secret when the input of the same key
        // is, so the code is never held in plain text, not even in the engine's answer to the
        // program (which `additionalSecretOutputs` alone does not cover). The provider ignores it.
        code: pulumi.secret(""),
      },
      ["role", "expirationTime", "createTime"],
      { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), "code"] },
    );
  }
}
