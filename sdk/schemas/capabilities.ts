import { z } from "zod";

const crud = <F extends string>(family: F) =>
  [`${family}.list`, `${family}.create`, `${family}.update`, `${family}.delete`] as const;

/**
 * Every capability the API knows, `<family>.<verb>`. A role is a set of them; every operation needs
 * one at the group that governs it (a binding applies to its group and every descendant). `list`
 * covers Get and List.
 *
 * @example
 * CAPABILITIES.includes("groups.create"); // true
 */
export const CAPABILITIES = [
  ...crud("groups"),
  ...crud("identity"),
  ...crud("role_bindings"),
  ...crud("roles"),
  ...crud("identity_providers"),
  ...crud("account_associations"),
  ...crud("group_invites"),
  "repo.list",
  "tag.list",
  "advisories.list",
] as const;

/**
 * One capability name, validated against {@link CAPABILITIES}.
 *
 * @example
 * Capability.safeParse("groups.destroy").success; // false
 */
export const Capability = z.enum(CAPABILITIES, {
  error: (issue) =>
    `${JSON.stringify(issue.input)} is not a capability; see GET /iam/v2beta1/roles:capabilities`,
});
/**
 * One capability name.
 *
 * @example
 * const c: Capability = "role_bindings.create";
 */
export type Capability = z.infer<typeof Capability>;

/**
 * The answer of `GET /iam/v2beta1/roles:capabilities`. Names the client does not know yet are kept
 * as strings, so a newer server never breaks an older client.
 *
 * @example
 * const { capabilities } = CapabilityList.parse(await res.json());
 */
export const CapabilityList = z.object({ capabilities: z.array(z.string()) });
/**
 * The list of capabilities the server knows.
 *
 * @example
 * const list: CapabilityList = await client.capabilities();
 */
export type CapabilityList = z.infer<typeof CapabilityList>;
