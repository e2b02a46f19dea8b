import { z } from "zod";
import { GROUP_NAME_PATTERN, GROUP_NAME_PATTERN_SOURCE, OptionalString, Timestamp, Uid } from "./common.js";

/**
 * Resource limits of a group. Empty when none are set; v1 could hold integer counts.
 *
 * @example
 * ResourceLimits.parse({}); // {}
 */
export const ResourceLimits = z.object({
  clusters: z.number().int().optional(),
  idps: z.number().int().optional(),
  repositories: z.number().int().optional(),
});

/**
 * A group name as the API accepts it.
 *
 * @example
 * GroupName.safeParse("Team A").success; // false
 */
export const GroupName = z
  .string()
  .regex(GROUP_NAME_PATTERN, { message: `must match the pattern ${GROUP_NAME_PATTERN_SOURCE}` });

/**
 * A group of the organization tree, as the API returns it.
 *
 * @example
 * const g: Group = Group.parse(await res.json());
 */
export const Group = z.object({
  uid: Uid,
  name: z.string(),
  description: OptionalString,
  resourceLimits: ResourceLimits.optional().default({}),
  verified: z.boolean().optional().default(false),
  createTime: Timestamp,
  updateTime: Timestamp,
});
/**
 * A group of the organization tree.
 *
 * @example
 * const g: Group = await client.groups.get(uid);
 */
export type Group = z.infer<typeof Group>;

/**
 * Body of `POST /iam/v2beta1/groups/<parent_uid>`.
 *
 * @example
 * GroupCreate.parse({ name: "platform", description: "Platform team" });
 */
export const GroupCreate = z.object({
  name: GroupName,
  description: z.string().optional(),
});
/**
 * Body of a group create.
 *
 * @example
 * const body: GroupCreate = { name: "team-a", description: "Team A" };
 * await client.groups.create(orgUid, body);
 */
export type GroupCreate = z.infer<typeof GroupCreate>;

/**
 * The mutable fields of a group, as PATCH paths.
 *
 * @example
 * const patch = computeUpdate(current, desired, GROUP_MUTABLE_FIELDS);
 * if (patch) await client.groups.update(current.uid, patch.body, { updateMask: patch.updateMask });
 */
export const GROUP_MUTABLE_FIELDS = ["name", "description"] as const;
