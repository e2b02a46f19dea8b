import type * as pulumi from "@pulumi/pulumi";
import { IrvResource } from "../resource/index.js";

/**
 * Arguments of {@link Overlay}.
 *
 * @example
 * const args: irv.registry.OverlayArgs = { parentUid: orgUid, config: { contents: { packages: ["curl"] } } };
 * new irv.registry.Overlay("debug-tools", args);
 */
export interface OverlayArgs {
  /** The group the overlay is in. Changing it replaces the overlay. */
  parentUid: pulumi.Input<string>;
  /** Defaults to the resource's logical name. Unique in the group. */
  name?: pulumi.Input<string>;
  /**
   * The packages the overlay adds: only `contents.packages` is accepted, at least one. The service
   * has no update: a change replaces the overlay (the old one first, so the name stays free).
   */
  config: pulumi.Input<{ contents: pulumi.Input<{ packages: pulumi.Input<pulumi.Input<string>[]> }> }>;
}

/**
 * A reusable overlay of packages under a group (`pulumi-nodejs:dynamic/irv:Overlay`), bound to repos
 * by {@link OverlayBinding}. Any change replaces it; a bound overlay cannot be deleted, so bind it by
 * its `uid` and the binding is replaced with it.
 *
 * @example
 * const tools = new irv.registry.Overlay("debug-tools", { parentUid: orgUid, config: { contents: { packages: ["curl", "jq"] } } });
 * new irv.registry.OverlayBinding("app-tools", { repoUid: app.uid, overlay: tools.uid, tags: ["latest"] });
 */
export class Overlay extends IrvResource {
  declare readonly parentUid: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly config: pulumi.Output<{ contents: { packages: string[] } }>;

  constructor(name: string, args: OverlayArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "Overlay",
      name,
      { parentUid: args.parentUid, name: args.name ?? name, config: args.config },
      [],
      opts,
    );
  }
}
