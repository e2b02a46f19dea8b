import type { ReportViolation, ResourceValidationArgs, ResourceValidationPolicy } from "@pulumi/policy";

/**
 * Runs one policy on one resource, as the policy runner would, and returns the messages.
 *
 * @example
 * expect(await violations(groupNamePattern, TYPE.Group, { name: "Team A" })).toHaveLength(1);
 */
export async function violations(
  policy: ResourceValidationPolicy,
  type: string,
  props: Record<string, unknown>,
  config: object = {},
  name = "res",
): Promise<string[]> {
  const out: string[] = [];
  const args = {
    type,
    props,
    name,
    urn: `urn:pulumi:dev::p::${type}::${name}`,
    getConfig: () => config,
  } as unknown as ResourceValidationArgs;
  const validate = policy.validateResource as (
    a: ResourceValidationArgs,
    report: ReportViolation,
  ) => void | Promise<void>;
  await validate(args, (m: string) => out.push(m));
  return out;
}
