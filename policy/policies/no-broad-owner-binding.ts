import type {
  PolicyResource,
  ResourceValidationPolicy,
  StackValidationArgs,
  StackValidationPolicy,
} from "@pulumi/policy";
import { OWNER_CAPABILITIES } from "../owner-capabilities.js";
import { isType } from "../type-tokens.js";

/**
 * Configuration of {@link noBroadOwnerBinding}.
 *
 * @example
 * // policy-config.json: { "no-broad-owner-binding": { "ownerRoleUids": ["9f3c…"] } }
 * const ownerUids = args.getConfig<OwnerBindingConfig>().ownerRoleUids ?? [];
 */
export interface OwnerBindingConfig {
  /** Uids of the `owner` role (a binding's role name is known only once it exists). */
  ownerRoleUids?: string[];
}

/**
 * `no-broad-owner-binding` (advisory): warns when a role binding in the root organization (a group
 * uid without `/`) grants the `owner` role, or a custom role equivalent to it, since that grants
 * everything everywhere.
 *
 * - The built-in `owner` role is recognised per binding: by name once the binding exists, and by
 *   the uids in the pack config before that.
 * - A custom `irv.iam.Role` declared in the same stack is owner-equivalent when its capabilities
 *   include every capability the built-in owner role grants. A binding only knows its role by uid,
 *   which is unknown while a new role is previewed, so this part looks at the whole stack: the role
 *   is the `irv.iam.Role` the binding's `roleUid` comes from (its property dependency), or the one
 *   whose `uid` equals it. Pulumi runs stack checks only when no mandatory policy stopped the
 *   preview first.
 * - Not owner-equivalent: `role_bindings.create` with `roles.*` alone. The API refuses to grant
 *   more than the caller holds (docs/contract-decisions.md, "No escalation"), so such a role hands
 *   out only what its holder already has; `custom-role-least-privilege` flags it below the root.
 *
 * @example
 * // policy-config.json: { "no-broad-owner-binding": { "ownerRoleUids": ["9f3c…"] } }
 */
export const noBroadOwnerBinding: ResourceValidationPolicy & Pick<StackValidationPolicy, "validateStack"> = {
  name: "no-broad-owner-binding",
  description: "The owner role, or a custom role granting as much, is not bound in the root organization.",
  enforcementLevel: "advisory",
  configSchema: { properties: { ownerRoleUids: { type: "array", items: { type: "string" }, default: [] } } },
  validateResource: (args, reportViolation) => {
    if (!isType(args.type, "RoleBinding")) return;
    const [groupUid, roleUid, role] = ["groupUid", "roleUid", "role"].map((k) => known(args.props, k));
    if (!atRoot(groupUid)) return;
    const ownerUids = args.getConfig<OwnerBindingConfig>().ownerRoleUids ?? [];
    const isOwner =
      (role as { name?: unknown } | undefined)?.name === "owner" ||
      (typeof roleUid === "string" && ownerUids.includes(roleUid));
    if (isOwner)
      reportViolation(
        `The binding ${JSON.stringify(args.name)} grants the owner role in the root organization ${groupUid}: bind a narrower role, or bind owner in the team's own group.`,
      );
  },
  validateStack: (args: StackValidationArgs, reportViolation) => {
    for (const binding of args.resources) {
      if (!isType(binding.type, "RoleBinding")) continue;
      const groupUid = known(binding.props, "groupUid");
      if (!atRoot(groupUid)) continue;
      const role = boundRole(binding, args.resources);
      if (role === undefined || !ownerEquivalent(role)) continue;
      reportViolation(
        `The binding ${JSON.stringify(binding.name)} grants the custom role ${JSON.stringify(role.name)}, which grants every capability of the owner role, in the root organization ${groupUid}: bind a narrower role, or bind it in the team's own group.`,
        binding.urn,
      );
    }
  },
};

function atRoot(groupUid: unknown): groupUid is string {
  return typeof groupUid === "string" && !groupUid.includes("/");
}

// The Role a binding's roleUid comes from in this stack, if any.
function boundRole(binding: PolicyResource, resources: PolicyResource[]): PolicyResource | undefined {
  const source = (binding.propertyDependencies.roleUid ?? []).find((r) => isType(r.type, "Role"));
  if (source) return source;
  const roleUid = known(binding.props, "roleUid");
  if (typeof roleUid !== "string") return undefined;
  return resources.find((r) => isType(r.type, "Role") && known(r.props, "uid") === roleUid);
}

function ownerEquivalent(role: PolicyResource): boolean {
  const capabilities = known(role.props, "capabilities");
  return Array.isArray(capabilities) && OWNER_CAPABILITIES.every((c) => capabilities.includes(c));
}

// A value not known yet (a new role's uid in a preview) reads as undefined: the pack's proxy would
// otherwise throw, and Pulumi would report that the policy could not run at all.
function known(props: Record<string, unknown>, key: string): unknown {
  try {
    return props[key];
  } catch {
    return undefined;
  }
}
