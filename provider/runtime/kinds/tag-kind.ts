import { z } from "zod";
import type { Tag } from "../../../sdk/index.js";
import { TagCreateSchema, TagSchema } from "../../../sdk/index.js";
import { defineKind } from "../kind-definition.js";
import { uidInput } from "./inputs.js";
import { defined, parentUidOf } from "./parent-uid.js";

/**
 * Inputs of `irv.registry.Tag`: the repo, the tag name and the digest it points to (`sha256:` and 64
 * lowercase hex digits), and optionally `deprecated` and `bundles`.
 *
 * @example
 * TagInputs.parse({ repoUid, name: "latest", digest: `sha256:${"a".repeat(64)}` });
 */
export const TagInputs = z.object({
  repoUid: uidInput("the uid of the repo the tag is in"),
  name: TagCreateSchema.shape.name,
  digest: z
    .string({ error: "is required: the digest the tag points to (sha256:…)" })
    .pipe(TagCreateSchema.shape.digest),
  deprecated: z.boolean().optional(),
  bundles: z.array(z.string().min(1)).optional(),
});

type TagInputs = z.infer<typeof TagInputs>;

// The service's create is an upsert by name: the body is the whole tag.
const bodyOf = ({ name, digest, deprecated, bundles }: TagInputs) => ({
  name,
  digest,
  ...defined({ deprecated, bundles }),
});

/**
 * `irv.registry.Tag`: a tag of a repo. Another repo or name replaces it (the new tag first: the names
 * differ). A new digest, `deprecated` or `bundles` is an update made by the create again, which the
 * service answers as an upsert of the tag of that name, keeping its uid: one tag remains, with the
 * new digest. (A replace would create first, which upserts the same tag, then delete the old uid,
 * which is that same tag.)
 *
 * @example
 * makeProvider(tagKind, getClient);
 */
export const tagKind = defineKind({
  type: "Tag",
  singular: "tag",
  inputs: TagInputs,
  inputKeys: ["repoUid", "name", "digest", "deprecated", "bundles"],
  replaceKeys: ["repoUid", "name"],
  mutableKeys: ["digest", "deprecated", "bundles"],
  outputs: TagSchema.pick({ uid: true, createTime: true, updateTime: true }),
  create: (client, inputs) => client.tags.create(inputs.repoUid, bodyOf(inputs)),
  get: (client, uid) => client.tags.find(uid),
  update: (client, uid, _body, _mask, inputs) => client.tags.create(parentUidOf(uid), bodyOf(inputs)),
  delete: (client, uid) => client.tags.delete(uid, { ignoreNotFound: true }),
  inputsOf: (s: Tag) => ({
    repoUid: parentUidOf(s.uid),
    name: s.name,
    digest: s.digest,
    ...defined({
      deprecated: s.deprecated || undefined,
      bundles: s.bundles.length > 0 ? [...s.bundles] : undefined,
    }),
  }),
  outputsOf: (s, inputs) => ({
    ...defined(inputs),
    digest: s.digest,
    uid: s.uid,
    ...defined({ createTime: s.createTime, updateTime: s.updateTime }),
  }),
});
