import type {
  PolicyResource,
  ReportViolation,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  StackValidationArgs,
  StackValidationPolicy,
} from "@pulumi/policy";

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

/** A resource as a stack policy sees it; `roleFrom` makes its `roleUid` come from that resource. */
export interface StackResource {
  type: string;
  name: string;
  props: Record<string, unknown>;
  roleFrom?: StackResource;
}

/**
 * Runs a stack policy on resources, as the policy runner would, and returns each message with the
 * name of the resource it names.
 *
 * @example
 * expect(await stackViolations(noBroadOwnerBinding, [role, binding])).toEqual([["admins-binding", "…"]]);
 */
export async function stackViolations(
  policy: Pick<StackValidationPolicy, "validateStack">,
  resources: StackResource[],
): Promise<[string | undefined, string][]> {
  const urn = (r: StackResource) => `urn:pulumi:dev::p::${r.type}::${r.name}`;
  const built = new Map<StackResource, PolicyResource>();
  for (const r of resources)
    built.set(r, {
      type: r.type,
      name: r.name,
      urn: urn(r),
      props: r.props,
      dependencies: [],
      propertyDependencies: {},
    } as unknown as PolicyResource);
  for (const r of resources) {
    const from = r.roleFrom && built.get(r.roleFrom);
    if (from) (built.get(r) as PolicyResource).propertyDependencies.roleUid = [from];
  }
  const out: [string | undefined, string][] = [];
  const args = { resources: [...built.values()], getConfig: () => ({}) } as unknown as StackValidationArgs;
  const validate = policy.validateStack as (
    a: StackValidationArgs,
    report: ReportViolation,
  ) => void | Promise<void>;
  await validate(args, (m: string, u?: string) => out.push([u?.split("::").pop(), m]));
  return out;
}

/**
 * Props as the policy runner passes them in a preview where `unknown` keys are not known yet:
 * reading one throws, as the runner's proxy does.
 *
 * @example
 * await violations(customRoleLeastPrivilege, TYPE.Role, withUnknown({ capabilities }, "parentUid"));
 */
export function withUnknown(props: Record<string, unknown>, ...unknown: string[]): Record<string, unknown> {
  return new Proxy(props, {
    get: (target, key) => {
      if (typeof key === "string" && unknown.includes(key))
        throw new Error(`string value at .${key} can't be known during preview`);
      return target[key as string];
    },
  });
}
