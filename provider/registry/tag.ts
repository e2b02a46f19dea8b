import type * as pulumi from "@pulumi/pulumi";
import { IrvResource } from "../resource/index.js";

/**
 * Arguments of {@link Tag}.
 *
 * @example
 * const args: irv.registry.TagArgs = { repoUid: app.uid, digest: "sha256:…" };
 * new irv.registry.Tag("latest", args);
 */
export interface TagArgs {
  /** The repo. Changing it replaces the tag. */
  repoUid: pulumi.Input<string>;
  /** The tag name; defaults to the resource's logical name. Changing it replaces the tag. */
  name?: pulumi.Input<string>;
  /**
   * The manifest digest the tag points to (`sha256:` and 64 lowercase hex digits). A new digest
   * moves the tag in place: the service's create is an upsert by name, so it is sent again and the
   * same tag (same uid) points to the new digest.
   */
  digest: pulumi.Input<string>;
  deprecated?: pulumi.Input<boolean>;
  bundles?: pulumi.Input<pulumi.Input<string>[]>;
}

/**
 * A tag of a repo (`pulumi-nodejs:dynamic/irv:Tag`).
 *
 * @example
 * const latest = new irv.registry.Tag("latest", { repoUid: app.uid, digest: `sha256:${"0".repeat(64)}` });
 */
export class Tag extends IrvResource {
  declare readonly repoUid: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly digest: pulumi.Output<string>;
  declare readonly deprecated: pulumi.Output<boolean | undefined>;
  declare readonly bundles: pulumi.Output<string[] | undefined>;
  declare readonly createTime: pulumi.Output<string | undefined>;
  declare readonly updateTime: pulumi.Output<string | undefined>;

  constructor(name: string, args: TagArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "Tag",
      name,
      {
        repoUid: args.repoUid,
        name: args.name ?? name,
        digest: args.digest,
        deprecated: args.deprecated,
        bundles: args.bundles,
      },
      ["createTime", "updateTime"],
      opts,
    );
  }
}
