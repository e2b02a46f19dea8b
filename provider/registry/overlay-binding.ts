import type * as pulumi from "@pulumi/pulumi";
import { IrvResource } from "../resource/index.js";

/**
 * Arguments of {@link OverlayBinding}.
 *
 * @example
 * const args: irv.registry.OverlayBindingArgs = { repoUid: app.uid, overlay: tools.uid, tags: ["latest"] };
 * new irv.registry.OverlayBinding("app-tools", args);
 */
export interface OverlayBindingArgs {
  /** The repo. */
  repoUid: pulumi.Input<string>;
  /**
   * The overlay: its uid (recommended: the binding then follows a replaced overlay), or its name in
   * the repo's organization.
   */
  overlay: pulumi.Input<string>;
  /** The exact tags the overlay applies to, at least one. */
  tags: pulumi.Input<pulumi.Input<string>[]>;
}

/**
 * An overlay bound to a repo for exact tags (`pulumi-nodejs:dynamic/irv:OverlayBinding`). The service
 * has no update: any change replaces it.
 *
 * @example
 * new irv.registry.OverlayBinding("app-tools", { repoUid: app.uid, overlay: tools.uid, tags: ["latest"] });
 */
export class OverlayBinding extends IrvResource {
  declare readonly repoUid: pulumi.Output<string>;
  declare readonly overlay: pulumi.Output<string>;
  declare readonly tags: pulumi.Output<string[]>;
  /** The overlay the service resolved. */
  declare readonly overlayUid: pulumi.Output<string>;
  declare readonly overlayName: pulumi.Output<string>;

  constructor(name: string, args: OverlayBindingArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "OverlayBinding",
      name,
      { repoUid: args.repoUid, overlay: args.overlay, tags: args.tags },
      ["overlayUid", "overlayName"],
      opts,
    );
  }
}
