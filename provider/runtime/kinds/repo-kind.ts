import { z } from "zod";
import type { IrvClient, Repo } from "../../../sdk/index.js";
import {
  ApiError,
  CATALOG_TIERS,
  CustomOverlayInputSchema,
  REPO_MUTABLE_FIELDS,
  RepoSchema,
  SYNC_INHERITED_FIELDS,
  SyncConfigInputSchema,
} from "../../../sdk/index.js";
import type { Props } from "../kind-definition.js";
import { defineKind } from "../kind-definition.js";
import { deleteWhenEmpty, REPO_PARENT } from "./delete-group.js";
import { nameInput, uidInput } from "./inputs.js";
import { maskWithin, renameFields } from "./mask.js";
import { defined, parentUidOf } from "./parent-uid.js";
import { pruned } from "./pruned.js";

const names = (what: string) => z.array(z.string().min(1, { message: `must not hold an empty ${what}` }));

/**
 * Inputs of `irv.registry.Repo`. `syncConfig` is the wire's `sync_config`; a synced repo takes its
 * tier, bundles, aliases, active tags and readme from its source, so setting them with `syncConfig`
 * is refused here, before any call (the service refuses it with INVALID_ARGUMENT).
 *
 * @example
 * RepoInputs.parse({ parentUid: orgUid, name: "nginx", syncConfig: { source: "chainguard/nginx" } });
 */
export const RepoInputs = z
  .object({
    parentUid: uidInput("the uid of the group the repo is in"),
    name: nameInput("the repo name"),
    description: z.string().optional(),
    catalogTier: z.enum(CATALOG_TIERS).optional(),
    bundles: names("bundle").optional(),
    aliases: names("alias").optional(),
    activeTags: names("tag").optional(),
    syncConfig: SyncConfigInputSchema.optional(),
    customOverlay: CustomOverlayInputSchema.optional(),
    readme: z.string().optional(),
  })
  .superRefine((i, ctx) => {
    if (i.syncConfig === undefined) return;
    for (const field of [...SYNC_INHERITED_FIELDS, "readme"] as const)
      if (i[field] !== undefined)
        ctx.addIssue({
          code: "custom",
          path: [field],
          message: `cannot be set on a synced repo: it is inherited from syncConfig.source (remove ${field}, or remove syncConfig)`,
        });
  });

// The API's mutable fields in input names (`syncConfig` for `sync_config`), and the README.
const MUTABLE = [
  ...REPO_MUTABLE_FIELDS.map((f) => (f === "sync_config" ? "syncConfig" : f)),
  "readme",
] as (keyof z.infer<typeof RepoInputs> & string)[];

const findByName = (client: IrvClient, parentUid: string, name: string) => async () =>
  (await client.repos.list({ childrenOf: parentUid, name })).items[0];

/** A repo as the kind reads it: the repo and its README (a sub-resource of its own). */
type RepoRead = Repo & { readme?: string };

// A repo without a README answers none: the empty text, not a failure.
async function readmeOf(client: IrvClient, uid: string): Promise<string> {
  try {
    return (await client.repos.getReadme(uid)).content;
  } catch (e) {
    if (e instanceof ApiError && e.isNotFound()) return "";
    throw e;
  }
}

// The sync settings as a program writes them: the source and the clouds set (the service's own
// fields, `uniqueTags`, `expirationTime`, …, are not inputs).
function syncInputsOf(sync: Repo["sync_config"]) {
  if (!sync) return undefined;
  return {
    source: sync.source,
    ...defined({
      google: sync.google || undefined,
      amazon: sync.amazon || undefined,
      azure: sync.azure || undefined,
    }),
  };
}

// The repo as it is when only its README changed: what the inputs say (no PATCH was sent, and a
// repo with a README of its own is not synced, so nothing is inherited).
function unchanged(uid: string, inputs: z.infer<typeof RepoInputs>): RepoRead {
  return {
    uid,
    name: inputs.name,
    ...defined({
      description: inputs.description,
      customOverlay: inputs.customOverlay as Repo["customOverlay"],
    }),
    catalogTier: inputs.catalogTier ?? CATALOG_TIERS[0],
    bundles: inputs.bundles ?? [],
    aliases: inputs.aliases ?? [],
    activeTags: inputs.activeTags ?? [],
  } as RepoRead;
}

const nonEmpty = <T>(list: readonly T[] | undefined) => (list && list.length > 0 ? [...list] : undefined);

// What the service answers in full (empty maps and lists of a custom overlay, empty clouds of a sync
// config) compares in the few fields a program sets.
const comparable = (p: Props): Props => ({
  ...p,
  ...(p.customOverlay === undefined ? {} : { customOverlay: pruned(p.customOverlay) }),
  ...(p.syncConfig === undefined ? {} : { syncConfig: pruned(p.syncConfig) }),
});

/**
 * `irv.registry.Repo`: a registry repository under `parentUid`. Every field but the group changes in
 * place, all of a step's changes in one PATCH with their mask (`syncConfig` as `sync_config`); the
 * README is its own call, made only when `readme` is set. A repo with tags or overlay bindings under
 * it is deleted once they are gone (RESOURCE_NOT_EMPTY is an ordering problem, as for groups).
 *
 * @example
 * makeProvider(repoKind, getClient);
 */
export const repoKind = defineKind({
  type: "Repo",
  singular: "repo",
  inputs: RepoInputs,
  inputKeys: ["parentUid", ...MUTABLE],
  replaceKeys: ["parentUid"],
  mutableKeys: MUTABLE,
  outputs: RepoSchema.pick({ uid: true, createTime: true, updateTime: true }).extend({
    /** The README as the service has it. */
    readmeContent: z.string(),
  }),
  // The service answers a sync source as a repo uid, whatever form the program wrote it in.
  writeOnly: ["syncConfig.source"],
  // Filled by the service when left out: a synced repo's inherited fields and description, a readme.
  defaultedByServer: [...SYNC_INHERITED_FIELDS, "description", "readme"],
  // A step that writes the README alone sends no PATCH: the repo's timestamps stay as they were.
  keptOnUpdate: ["readmeContent", "createTime", "updateTime"],
  comparable,
  create: async (client, { parentUid, readme, syncConfig, ...fields }) => {
    const repo = await client.repos.create(
      parentUid,
      { ...defined(fields), name: fields.name, ...defined({ sync_config: syncConfig }) },
      { findExisting: findByName(client, parentUid, fields.name) },
    );
    const content =
      readme === undefined
        ? await readmeOf(client, repo.uid)
        : (await client.repos.updateReadme(repo.uid, readme)).content;
    return { ...repo, readme: content };
  },
  get: async (client, uid): Promise<RepoRead | undefined> => {
    const [repo, readme] = await Promise.all([client.repos.find(uid), readmeOf(client, uid)]);
    return repo && { ...repo, readme };
  },
  update: async (client, uid, body, updateMask, inputs): Promise<RepoRead> => {
    const { readme, ...fields } = body;
    const paths = updateMask.filter((p) => p !== "readme");
    const written =
      updateMask.includes("readme") && typeof readme === "string"
        ? (await client.repos.updateReadme(uid, readme)).content
        : undefined;
    if (paths.length === 0) return { ...unchanged(uid, inputs), ...defined({ readme: written }) };
    const patch = renameFields(fields, paths, { syncConfig: "sync_config" });
    const repo = await client.repos.update(uid, patch.body, {
      updateMask: maskWithin(patch.updateMask, REPO_MUTABLE_FIELDS),
    });
    return { ...repo, ...defined({ readme: written }) };
  },
  delete: (client, uid, state) =>
    deleteWhenEmpty(client, REPO_PARENT, uid, typeof state.name === "string" ? state.name : uid),
  inputsOf: (s: RepoRead) => {
    const synced = s.sync_config !== undefined;
    return {
      parentUid: parentUidOf(s.uid),
      name: s.name,
      ...defined({
        description: s.description || undefined,
        ...(synced
          ? {}
          : {
              catalogTier: s.catalogTier === CATALOG_TIERS[0] ? undefined : (s.catalogTier as never),
              bundles: nonEmpty(s.bundles),
              aliases: nonEmpty(s.aliases),
              activeTags: nonEmpty(s.activeTags),
              readme: s.readme || undefined,
            }),
        syncConfig: syncInputsOf(s.sync_config),
        customOverlay: pruned(s.customOverlay) as z.infer<typeof CustomOverlayInputSchema> | undefined,
      }),
    };
  },
  outputsOf: (s: RepoRead, inputs) => ({
    ...defined(inputs),
    ...defined({ name: s.name, description: s.description || undefined }),
    // A synced repo's inherited fields are the source's: outputs, whatever the inputs say.
    catalogTier: s.catalogTier,
    bundles: [...s.bundles],
    aliases: [...s.aliases],
    activeTags: [...s.activeTags],
    ...defined({ readmeContent: s.readme }),
    uid: s.uid,
    ...defined({ createTime: s.createTime, updateTime: s.updateTime }),
  }),
});
