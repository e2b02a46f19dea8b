import type { IrvClient } from "../../sdk/index.js";
import type { KnownRole } from "./stack-resources.js";

/**
 * Every role the client's caller sees (built-in and custom), reduced to what the review needs of
 * one: its uid, name and capabilities. The roles a stack refers to without managing them (a
 * binding to the built-in `owner`, a role looked up by name) are known to the review only through
 * this list. `pulumi-irv access-review` and the `access-broadening` policy both read it.
 *
 * @example
 * const roles = await knownRolesOf(client);
 * orgModelOf(resources, { roles });
 */
export async function knownRolesOf(client: Pick<IrvClient, "roles">): Promise<KnownRole[]> {
  return (await client.roles.collect()).map((r) => ({
    uid: r.uid,
    name: r.name,
    capabilities: r.capabilities,
  }));
}
