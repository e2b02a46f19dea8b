import { z } from "zod";
import { Timestamp, Uid } from "./common.js";

/**
 * The IAM kinds the spec lists without fields (IdentityProviders, AccountAssociations,
 * GroupInvites): a uid, a name and timestamps are required, every other field is kept as sent.
 *
 * @example
 * const idp = LooseResource.parse({ uid, name: "github", createTime, updateTime, issuer: "https://…" });
 */
export const LooseResource = z.looseObject({
  uid: Uid,
  name: z.string(),
  description: z.string().optional(),
  createTime: Timestamp,
  updateTime: Timestamp,
});
/**
 * A resource of a kind whose fields the spec does not show.
 *
 * @example
 * const idps: LooseResource[] = await client.identityProviders.collect({ childrenOf: groupUid });
 */
export type LooseResource = z.infer<typeof LooseResource>;

/**
 * Body of a create of a loose kind: a name plus any fields of the caller's.
 *
 * @example
 * LooseCreate.parse({ name: "github", issuer: "https://token.actions.githubusercontent.com" });
 */
export const LooseCreate = z.looseObject({
  name: z.string().min(1, { message: "is required" }),
  description: z.string().optional(),
});
/**
 * Body of a loose-kind create.
 *
 * @example
 * const body: LooseCreate = { name: "github", issuer: "https://token.actions.githubusercontent.com" };
 * await client.identityProviders.create(groupUid, body);
 */
export type LooseCreate = z.infer<typeof LooseCreate>;
