import type * as pulumi from "@pulumi/pulumi";
import { dataSource, exactlyOne } from "../data-sources/index.js";
import type { Group, InputsOf } from "../types/index.js";

/**
 * Arguments of {@link getGroup}: a uid, or a name (and, when the name is not unique, the parent).
 *
 * @example
 * const byName: irv.iam.GetGroupArgs = { name: "platform", parentUid: orgUid };
 */
export type GetGroupArgs = { uid: string } | { name: string; parentUid?: string | undefined };

const group = dataSource("irv.iam.getGroup", async (client, args: GetGroupArgs) => {
  if ("uid" in args && args.uid) return client.groups.get(args.uid);
  if (!("name" in args) || !args.name) throw new Error("pass { uid } or { name, parentUid? }");
  const found = await client.groups.collectParallel(
    args.parentUid ? { childrenOf: args.parentUid, name: args.name } : { name: args.name },
  );
  return exactlyOne(`groups named ${JSON.stringify(args.name)}`, found, "pass parentUid to choose one");
});

/**
 * Exactly one group, by uid or by name; fails clearly when there is none or several.
 *
 * @example
 * const platform = await irv.iam.getGroup({ name: "platform", parentUid: orgUid });
 */
export function getGroup(args: GetGroupArgs): Promise<Group> {
  return group.get(args);
}

/**
 * {@link getGroup} taking Inputs and returning an Output.
 *
 * @example
 * const platform = irv.iam.getGroupOutput({ name: "platform" });
 * new irv.iam.Group("team-x", { parentUid: platform.uid });
 */
export function getGroupOutput(
  args: InputsOf<{ uid: string }> | InputsOf<{ name: string; parentUid?: string | undefined }>,
): pulumi.Output<Group> {
  return group.output(args as InputsOf<GetGroupArgs>);
}
