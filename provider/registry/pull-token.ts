import * as pulumi from "@pulumi/pulumi";
import { IrvResource } from "../resource/index.js";

/**
 * Arguments of {@link PullToken}.
 *
 * @example
 * const args: irv.registry.PullTokenArgs = { groupUid: team.uid, ttl: "720h", rotateBefore: "168h" };
 */
export interface PullTokenArgs {
  /** The group whose repositories (and those of its subgroups) the token pulls. */
  groupUid: pulumi.Input<string>;
  /** The name of the token's identity; defaults to the resource's logical name. */
  name?: pulumi.Input<string>;
  description?: pulumi.Input<string>;
  /**
   * How long the token is valid from its create: `"720h"` (the default, 30 days) up to `"8760h"`
   * (365 days), at least `"1h"`. A change replaces the token (the new one is made first).
   */
  ttl?: pulumi.Input<string>;
  /** The role the token holds in the group; default the built-in `registry.pull`. A change replaces it. */
  roleUid?: pulumi.Input<string>;
  /**
   * When set (`"168h"`), `pulumi up` replaces a token that expires within this duration of now (the
   * machine running Pulumi's clock), new one first. Shorter than `ttl`.
   */
  rotateBefore?: pulumi.Input<string>;
}

/**
 * A registry pull token (`pulumi-nodejs:dynamic/irv:PullToken`): the credential Kubernetes image
 * pull secrets, registry mirrors and CI systems without OIDC log in with. It is an identity whose
 * credential only this resource could sign — a `staticKeys` identity whose key pair is made at the
 * create; the private key signs `password` and is dropped, never stored — bound to `registry.pull`
 * (or `roleUid`) in `groupUid`. `username` is the identity's uid; `password` and `dockerConfigJson`
 * are secrets, known to the stack that created the token only (an imported token has none: the
 * service cannot give a password back, so replace it to get one).
 *
 * @example
 * const pull = new irv.registry.PullToken("k8s-pull", {
 *   groupUid: team.uid,
 *   ttl: "720h",
 *   rotateBefore: "168h",
 * });
 * export const dockerConfig = pull.dockerConfigJson; // a secret
 */
export class PullToken extends IrvResource {
  declare readonly groupUid: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly description: pulumi.Output<string | undefined>;
  declare readonly ttl: pulumi.Output<string | undefined>;
  /** The role the token holds (the built-in `registry.pull`'s uid when none was given). */
  declare readonly roleUid: pulumi.Output<string>;
  declare readonly rotateBefore: pulumi.Output<string | undefined>;
  /** The registry login's user name: the token identity's uid. */
  declare readonly username: pulumi.Output<string>;
  /**
   * The name of the token's identity: `name` and the expiration (`ci-pull-20261226T101500Z`), so
   * that a replacement, made before the token it replaces, has a name of its own in the group.
   */
  declare readonly identityName: pulumi.Output<string>;
  /** The registry login's password, a secret: a token valid until `expirationTime`. */
  declare readonly password: pulumi.Output<string | undefined>;
  /** When the token stops working. */
  declare readonly expirationTime: pulumi.Output<string>;
  /** A `~/.docker/config.json` (and `kubernetes.io/dockerconfigjson`) logging in to `registryHost`; a secret. */
  declare readonly dockerConfigJson: pulumi.Output<string | undefined>;
  /** The registry host the token is for (`irv:registryHost`, default `cgr.dev`). */
  declare readonly registryHost: pulumi.Output<string>;
  /** The uid of the token's role binding. */
  declare readonly bindingUid: pulumi.Output<string | undefined>;
  declare readonly createTime: pulumi.Output<string>;

  constructor(name: string, args: PullTokenArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "PullToken",
      name,
      {
        groupUid: args.groupUid,
        name: args.name ?? name,
        description: args.description,
        ttl: args.ttl,
        roleUid: args.roleUid,
        rotateBefore: args.rotateBefore,
        // Secret placeholders: the engine keeps an output secret when the input of the same key is,
        // so the credentials are never held in plain text, not even in the engine's answer to the
        // program (which `additionalSecretOutputs` alone does not cover). The provider ignores them.
        password: pulumi.secret(""),
        dockerConfigJson: pulumi.secret(""),
      },
      ["username", "identityName", "expirationTime", "registryHost", "bindingUid", "createTime"],
      {
        ...opts,
        additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), "password", "dockerConfigJson"],
      },
    );
  }
}
