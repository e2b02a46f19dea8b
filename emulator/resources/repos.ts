import {
  CATALOG_TIERS,
  HIERARCHICAL_UID_PATTERN,
  RepoCreateSchema,
  SYNC_INHERITED_FIELDS,
} from "pulumi-irv/sdk";
import { z } from "zod";
import type { Caller } from "../auth/index.js";
import { ancestorUid, failedPrecondition, formatTimestamp, invalidArgument } from "../core/index.js";
import { customAssemblyEnabled } from "./custom-assembly.js";
import type { KindContext, KindHooks } from "./kind-context.js";
import { refuseNotEmpty } from "./not-empty.js";
import { customOverlayOf, populated } from "./overlay-config.js";
import { SeedText as Text } from "./seed-text.js";
import { throwNestedZodViolations, throwZodViolations } from "./violations.js";

type Fields = Record<string, unknown>;
const isObject = (v: unknown): v is Fields => typeof v === "object" && v !== null && !Array.isArray(v);

// Seeded names are compared exactly, as over the API: a lone surrogate would become U+FFFD.
const Names = z.array(Text).max(100);

/**
 * The fields a seeded repo may set (control API and fixtures): the published `Repo`'s own fields
 * (chainguard-dev/sdk, proto/chainguard/platform/registry/v2beta1/repos.proto:182-245) but its
 * `sync_config` and `customOverlay`, which the API's create checks (a source to resolve, custom
 * assembly). Unknown keys are dropped.
 *
 * @example
 * RepoSeed.parse({ name: "nginx", catalogTier: "CATALOG_TIER_BASE", activeTags: ["latest"] });
 */
export const RepoSeed = z.object({
  name: Text.min(1),
  description: Text.optional(),
  catalogTier: z
    .string()
    .regex(/^CATALOG_TIER_[A-Z_]+$/, { message: "must be a CatalogTier value name, e.g. CATALOG_TIER_BASE" })
    .optional(),
  bundles: Names.optional(),
  aliases: Names.optional(),
  activeTags: Names.optional(),
});

/** How long a new sync runs before the service stops it (published SyncConfig.expiration_time). */
const SYNC_DAYS = 14;
const SYNC_OUTPUT_ONLY = ["uniqueTags", "expirationTime", "apkoOverlay", "gracePeriod"] as const;
const SyncInput = RepoCreateSchema.shape.sync_config.unwrap();
// The fields of a repo of its own checked after an update (a create's body went through RepoCreate).
const OwnFields = RepoCreateSchema.pick({
  name: true,
  description: true,
  catalogTier: true,
  bundles: true,
  aliases: true,
  activeTags: true,
});

// A full image reference's registry host (`cgr.dev/…`, `localhost:5000/…`): the first segment when it
// holds a dot or a colon, as image references are read.
const HOST = /^[^/]*[.:][^/]*\//;

/**
 * The repo a `sync_config.source` names: a repo uid, a catalog name `<group>/<repo>` (the repo named
 * `<repo>` in a group named `<group>`) or an image reference (`cgr.dev/<group>/<repo>`), always
 * answered as the uid. The caller must be able to pull it (`repo.list` on its group): code 3 naming
 * the field otherwise, as for a source that does not exist.
 *
 * @example
 * syncSource(ctx, caller, "cgr.dev/chainguard/nginx").uid;
 */
export function syncSource(ctx: KindContext, caller: Caller, source: string): { uid: string; data: Fields } {
  const field = "sync_config.source";
  let uid: string | undefined;
  if (HIERARCHICAL_UID_PATTERN.test(source)) {
    if (ctx.table.has("repos", source)) uid = source;
  } else {
    const [group, ...rest] = source.replace(HOST, "").split("/");
    const name = rest.join("/");
    uid = ctx.table
      .all("repos")
      .find((r) => r.name === name && ctx.table.get("groups", r.parentUid)?.name === group)?.uid;
  }
  const data = uid === undefined ? undefined : ctx.table.data("repos", uid);
  if (uid === undefined || data === undefined || !caller.has("repo.list", ancestorUid(uid, 1) ?? uid)) {
    throw invalidArgument([
      {
        field,
        description: `${JSON.stringify(source)} names no repo the caller can pull (a repo uid, a catalog name such as chainguard/nginx, or cgr.dev/chainguard/nginx)`,
      },
    ]);
  }
  return { uid, data: JSON.parse(data) as Fields };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? []) === JSON.stringify(b ?? []);
const sameValue = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

// A synced repo takes its tier, bundles, aliases and active tags from its source; a value given that
// differs from the source's is a change, and refused (published repos.proto, comments of Repo).
function inherit(next: Fields, source: Fields, given: (f: string) => boolean): void {
  const refused = SYNC_INHERITED_FIELDS.filter((f) => given(f) && !same(next[f], source[f]));
  if (refused.length > 0) {
    throw invalidArgument(
      refused.map((f) => ({
        field: f,
        description: `is inherited from the sync source ${String(source.uid)} on a synced repo and cannot be changed`,
      })),
    );
  }
  for (const f of SYNC_INHERITED_FIELDS) next[f] = source[f] ?? (f === "catalogTier" ? CATALOG_TIERS[0] : []);
}

// The stored sync_config: the caller's source (as a uid) and clouds, the service's fields filled —
// kept from the current sync when there is one, otherwise their defaults.
function storedSync(input: Fields, sourceUid: string, current: Fields | undefined, now: number): Fields {
  const expiration = formatTimestamp(now + SYNC_DAYS * 24 * 3600 * 1000);
  return {
    source: sourceUid,
    uniqueTags: current?.uniqueTags ?? false,
    expirationTime: current?.expirationTime ?? expiration,
    google: input.google ?? "",
    amazon: input.amazon ?? "",
    azure: input.azure ?? "",
    apkoOverlay: current?.apkoOverlay ?? "",
    gracePeriod: current?.gracePeriod ?? false,
  };
}

// An update's sync_config as written: the service's fields may be restated as read, never changed.
function syncInput(value: Fields, current: Fields | undefined): Fields {
  const changed = SYNC_OUTPUT_ONLY.filter(
    (f) =>
      Object.hasOwn(value, f) && !sameValue(populated({ v: value[f] }).v, populated({ v: current?.[f] }).v),
  );
  if (changed.length > 0) {
    throw invalidArgument(
      changed.map((f) => ({ field: `sync_config.${f}`, description: "is output only: the service sets it" })),
    );
  }
  const own = Object.fromEntries(
    Object.entries(value).filter(([k]) => !(SYNC_OUTPUT_ONLY as readonly string[]).includes(k)),
  );
  const parsed = SyncInput.safeParse(populated(own));
  if (!parsed.success) throwNestedZodViolations(parsed.error, "sync_config");
  return parsed.data;
}

function refuseWithoutCustomAssembly(ctx: KindContext, groupUid: string): void {
  if (customAssemblyEnabled(ctx.table, groupUid)) return;
  throw failedPrecondition(
    `custom assembly is not enabled for group ${JSON.stringify(groupUid)}: a repo there cannot have a customOverlay`,
    [
      {
        type: "CUSTOM_ASSEMBLY_DISABLED",
        subject: groupUid,
        description: "customOverlay needs custom assembly enabled for the repo's group",
      },
    ],
  );
}

/**
 * Repos as the published `ReposService` writes them (registry/v2beta1/repos.proto):
 * - stored as the gateway answers (protojson with `EmitUnpopulated`): every field in the message's
 *   order, unset strings `""`, lists `[]`, the unset enum by its zero name, unset messages `null`;
 *   `sync_config` keeps its proto name (its json_name);
 * - a `sync_config.source` is resolved to a repo uid ({@link syncSource}); the sync's service fields
 *   are filled (`expirationTime` 14 days on); a synced repo takes tier, bundles, aliases and active
 *   tags from its source, and a change of them is code 3; its description defaults to the source's;
 * - a `customOverlay` needs custom assembly enabled for the group (code 9 otherwise);
 * - a repo with tags or overlay bindings under it is not deleted (code 9, RESOURCE_NOT_EMPTY).
 *
 * @example
 * REPO_HOOKS.stored?.(repoUid, groupUid, { name: "app" }, now)?.catalogTier; // "CATALOG_TIER_UNSPECIFIED"
 */
export const REPO_HOOKS: KindHooks = {
  beforeCreate(ctx, w) {
    const fields = { ...w.fields };
    if (isObject(fields.sync_config)) {
      const source = syncSource(ctx, w.caller, String(fields.sync_config.source));
      inherit(fields, source.data, (f) => fields[f] !== undefined);
      fields.description ??= source.data.description;
      fields.sync_config = storedSync(fields.sync_config, source.uid, undefined, w.now);
    }
    if (fields.customOverlay !== undefined) {
      refuseWithoutCustomAssembly(ctx, w.parentUid);
      fields.customOverlay = customOverlayOf(fields.customOverlay, "customOverlay");
    }
    return fields;
  },
  beforeUpdate(ctx, u) {
    const { next, current, paths } = u;
    const own = OwnFields.safeParse(
      Object.fromEntries(Object.keys(OwnFields.shape).map((k) => [k, populated({ v: next[k] }).v])),
    );
    if (!own.success) throwZodViolations(own.error);
    if (paths.includes("sync_config") && next.sync_config !== undefined && next.sync_config !== null) {
      if (!isObject(next.sync_config))
        throw invalidArgument([
          { field: "sync_config", description: "must be a JSON object, or null to stop syncing" },
        ]);
      const was = isObject(current.sync_config) ? current.sync_config : undefined;
      const input = syncInput(next.sync_config, was);
      const source = syncSource(ctx, u.caller, String(input.source));
      if (source.uid === u.row.uid)
        throw invalidArgument([
          { field: "sync_config.source", description: "a repo cannot sync from itself" },
        ]);
      next.sync_config = storedSync(
        input,
        source.uid,
        was?.source === source.uid ? was : undefined,
        ctx.clock(),
      );
    }
    if (isObject(next.sync_config)) {
      const source = ctx.table.data("repos", String(next.sync_config.source));
      const data = source === undefined ? {} : (JSON.parse(source) as Fields);
      inherit(next, { ...data, uid: next.sync_config.source }, (f) => paths.includes(f));
    } else next.sync_config = null;
    if (paths.includes("customOverlay") && next.customOverlay !== undefined && next.customOverlay !== null) {
      refuseWithoutCustomAssembly(ctx, u.row.parentUid);
      next.customOverlay = customOverlayOf(next.customOverlay, "customOverlay");
    } else next.customOverlay ??= null;
    for (const f of ["description"] as const) next[f] ??= "";
    for (const f of ["bundles", "aliases", "activeTags"] as const) next[f] ??= [];
    next.catalogTier ??= CATALOG_TIERS[0];
  },
  beforeDelete(ctx, _caller, uid) {
    refuseNotEmpty(ctx, uid, "repo", "tags or overlay bindings", (c) =>
      c.kind === "tags" ? `tag ${JSON.stringify(c.name)}` : "an overlay binding",
    );
  },
  stored: (uid, _parentUid, f, now) => ({
    uid,
    name: f.name,
    description: f.description ?? "",
    catalogTier: f.catalogTier ?? CATALOG_TIERS[0],
    bundles: f.bundles ?? [],
    aliases: f.aliases ?? [],
    activeTags: f.activeTags ?? [],
    // The published json_name of this field is snake_case (repos.proto:230-233).
    sync_config: f.sync_config ?? null,
    customOverlay: f.customOverlay ?? null,
    createTime: now,
    updateTime: now,
  }),
};
