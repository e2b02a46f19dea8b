import type * as pulumi from "@pulumi/pulumi";
import { dataSource, exactlyOne } from "../data-sources/index.js";
import type { Identity, InputsOf } from "../types/index.js";

/**
 * Arguments of {@link getIdentity}: a uid, a name in a group, or the exact issuer and subject of a
 * `claimMatch` identity.
 *
 * @example
 * const args: irv.iam.GetIdentityArgs = { issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/app:ref:refs/heads/main" };
 */
export type GetIdentityArgs =
  | { uid: string }
  | { name: string; groupUid: string }
  | { issuer: string; subject: string };

const identity = dataSource("irv.iam.getIdentity", async (client, args: GetIdentityArgs) => {
  if ("uid" in args && args.uid) return client.identities.get(args.uid);
  if ("name" in args && args.name) {
    if (!args.groupUid) throw new Error("pass groupUid with name");
    const found = await client.identities.collectParallel({ childrenOf: args.groupUid, name: args.name });
    return exactlyOne(`identities named ${JSON.stringify(args.name)} in ${args.groupUid}`, found, "");
  }
  if ("issuer" in args && args.issuer && args.subject) {
    const found: Identity[] = [];
    for await (const i of client.identities.listAll())
      if (i.claimMatch?.issuer === args.issuer && i.claimMatch.subject === args.subject) found.push(i);
    return exactlyOne(
      `identities with issuer ${JSON.stringify(args.issuer)} and subject ${JSON.stringify(args.subject)}`,
      found,
      "pass { name, groupUid } to choose one",
    );
  }
  throw new Error("pass { uid }, { name, groupUid } or { issuer, subject }");
});

/**
 * Exactly one identity; fails clearly when there is none or several.
 *
 * @example
 * const ci = await irv.iam.getIdentity({ name: "ci", groupUid: teamUid });
 */
export function getIdentity(args: GetIdentityArgs): Promise<Identity> {
  return identity.get(args);
}

/**
 * {@link getIdentity} taking Inputs and returning an Output.
 *
 * @example
 * const ci = irv.iam.getIdentityOutput({ name: "ci", groupUid: team.uid });
 * new irv.iam.RoleBinding("ci-viewer", { groupUid: team.uid, identityUid: ci.uid, roleUid: viewer.uid });
 */
export function getIdentityOutput(
  args:
    | InputsOf<{ uid: string }>
    | InputsOf<{ name: string; groupUid: string }>
    | InputsOf<{ issuer: string; subject: string }>,
): pulumi.Output<Identity> {
  return identity.output(args as InputsOf<GetIdentityArgs>);
}
