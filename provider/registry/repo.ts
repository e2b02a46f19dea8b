import type * as pulumi from "@pulumi/pulumi";
import { IrvResource } from "../resource/index.js";

/**
 * Where a {@link Repo} syncs from, and the cloud registries it copies to.
 *
 * @example
 * const sync: irv.registry.SyncConfigArgs = { source: "chainguard/nginx", amazon: "123456789012.dkr.ecr.us-east-1.amazonaws.com/nginx" };
 */
export interface SyncConfigArgs {
  /**
   * The repo synced from: its uid, a catalog name (`chainguard/nginx`) or an image reference
   * (`cgr.dev/chainguard/nginx`). The service answers it as a uid; the state keeps what you wrote.
   */
  source: pulumi.Input<string>;
  /** A Google Artifact Registry repository to copy to. */
  google?: pulumi.Input<string>;
  /** An Amazon ECR repository to copy to. */
  amazon?: pulumi.Input<string>;
  /** An Azure Container Registry repository to copy to. */
  azure?: pulumi.Input<string>;
}

/** A name and PEM content (an apk key, a certificate). */
interface NamedContentArgs {
  name: pulumi.Input<string>;
  content: pulumi.Input<string>;
}

/**
 * A repo's own image customization (the published `CustomOverlay`; needs custom assembly enabled for
 * the group). `CHAINGUARD_` environment keys and `dev.chainguard.` / `org.opencontainers.` annotation
 * keys are reserved and refused at preview.
 *
 * @example
 * const overlay: irv.registry.CustomOverlayArgs = { contents: { packages: ["curl"] }, environment: { TZ: "UTC" } };
 */
export interface CustomOverlayArgs {
  contents?: pulumi.Input<{
    packages?: pulumi.Input<pulumi.Input<string>[]>;
    runtimeRepositories?: pulumi.Input<pulumi.Input<string>[]>;
    runtimeKeyring?: pulumi.Input<pulumi.Input<NamedContentArgs>[]>;
  }>;
  environment?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  annotations?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  accounts?: pulumi.Input<{
    runAs?: pulumi.Input<string>;
    users?: pulumi.Input<
      pulumi.Input<{
        username: pulumi.Input<string>;
        uid?: pulumi.Input<number>;
        gid?: pulumi.Input<number>;
        groupName?: pulumi.Input<string>;
        shell?: pulumi.Input<string>;
        homeDir?: pulumi.Input<string>;
      }>[]
    >;
    groups?: pulumi.Input<
      pulumi.Input<{
        groupname: pulumi.Input<string>;
        gid?: pulumi.Input<number>;
        members?: pulumi.Input<pulumi.Input<string>[]>;
      }>[]
    >;
  }>;
  certificates?: pulumi.Input<{
    additional?: pulumi.Input<pulumi.Input<NamedContentArgs>[]>;
    providers?: pulumi.Input<pulumi.Input<string>[]>;
  }>;
}

/**
 * Arguments of {@link Repo}.
 *
 * @example
 * const args: irv.registry.RepoArgs = { parentUid: orgUid, bundles: ["base"], aliases: ["web"] };
 * new irv.registry.Repo("nginx", args);
 */
export interface RepoArgs {
  /** The group the repo is in. Changing it replaces the repo. */
  parentUid: pulumi.Input<string>;
  /** Defaults to the resource's logical name. */
  name?: pulumi.Input<string>;
  /** Left out on a synced repo, the source's. */
  description?: pulumi.Input<string>;
  /** `CATALOG_TIER_BASE`, `CATALOG_TIER_APPLICATION`, … Inherited on a synced repo (not settable there). */
  catalogTier?: pulumi.Input<string>;
  /** Inherited on a synced repo (not settable there). */
  bundles?: pulumi.Input<pulumi.Input<string>[]>;
  /** Equivalent image names. Inherited on a synced repo (not settable there). */
  aliases?: pulumi.Input<pulumi.Input<string>[]>;
  /** The tags actively maintained. Inherited on a synced repo (not settable there). */
  activeTags?: pulumi.Input<pulumi.Input<string>[]>;
  /** Makes the repo a synced copy of another (`sync_config` on the wire). */
  syncConfig?: pulumi.Input<SyncConfigArgs>;
  /** The repo's own image customization. */
  customOverlay?: pulumi.Input<CustomOverlayArgs>;
  /**
   * The README, written only when set (its own call after the create or update). Writing it needs
   * `repo.update` and the service's internal `repo.internal.admin`, so the service may refuse it
   * (PERMISSION_DENIED); leave it out and `readmeContent` still reads it. Not settable on a synced
   * repo, whose README is its source's.
   */
  readme?: pulumi.Input<string>;
}

/**
 * A registry repository (`pulumi-nodejs:dynamic/irv:Repo`). Every field but the group changes in
 * place, one PATCH per step. A repo with tags or overlay bindings is deleted after them: declare
 * those with the repo's `uid` as their `repoUid`.
 *
 * @example
 * const nginx = new irv.registry.Repo("nginx", {
 *   parentUid: orgUid,
 *   syncConfig: { source: "chainguard/nginx" },
 *   customOverlay: { contents: { packages: ["curl"] } },
 * });
 * const app = new irv.registry.Repo("app", { parentUid: orgUid, bundles: ["base"], aliases: ["web"] });
 */
export class Repo extends IrvResource {
  declare readonly parentUid: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly description: pulumi.Output<string | undefined>;
  /** The repo's tier (the source's on a synced repo). */
  declare readonly catalogTier: pulumi.Output<string>;
  declare readonly bundles: pulumi.Output<string[]>;
  declare readonly aliases: pulumi.Output<string[]>;
  declare readonly activeTags: pulumi.Output<string[]>;
  declare readonly syncConfig: pulumi.Output<
    { source: string; google?: string; amazon?: string; azure?: string } | undefined
  >;
  declare readonly customOverlay: pulumi.Output<Record<string, unknown> | undefined>;
  declare readonly readme: pulumi.Output<string | undefined>;
  /** The README as the service has it (read at create and refresh; `""` when there is none). */
  declare readonly readmeContent: pulumi.Output<string>;
  declare readonly createTime: pulumi.Output<string>;
  declare readonly updateTime: pulumi.Output<string | undefined>;

  constructor(name: string, args: RepoArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "Repo",
      name,
      {
        parentUid: args.parentUid,
        name: args.name ?? name,
        description: args.description,
        catalogTier: args.catalogTier,
        bundles: args.bundles,
        aliases: args.aliases,
        activeTags: args.activeTags,
        syncConfig: args.syncConfig,
        customOverlay: args.customOverlay,
        readme: args.readme,
      },
      ["readmeContent", "createTime", "updateTime"],
      opts,
    );
  }
}
