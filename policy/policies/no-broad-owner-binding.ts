import type { ResourceValidationPolicy } from "@pulumi/policy";
import { TYPE } from "../type-tokens.js";

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
 * `no-broad-owner-binding` (advisory): warns when the `owner` role is bound at the root of the
 * organization (a group uid without `/`), which grants everything everywhere. Recognises the role
 * by name once the binding exists, and by the uids in the pack config before that.
 *
 * @example
 * // policy-config.json: { "no-broad-owner-binding": { "ownerRoleUids": ["9f3c…"] } }
 */
export const noBroadOwnerBinding: ResourceValidationPolicy = {
  name: "no-broad-owner-binding",
  description: "The owner role is not bound in the root organization (least privilege).",
  enforcementLevel: "advisory",
  configSchema: { properties: { ownerRoleUids: { type: "array", items: { type: "string" }, default: [] } } },
  validateResource: (args, reportViolation) => {
    if (args.type !== TYPE.RoleBinding) return;
    const { groupUid, roleUid, role } = args.props;
    if (typeof groupUid !== "string" || groupUid.includes("/")) return;
    const ownerUids = args.getConfig<OwnerBindingConfig>().ownerRoleUids ?? [];
    const isOwner = role?.name === "owner" || (typeof roleUid === "string" && ownerUids.includes(roleUid));
    if (isOwner)
      reportViolation(
        `The binding ${JSON.stringify(args.name)} grants the owner role in the root organization ${groupUid}: bind a narrower role, or bind owner in the team's own group.`,
      );
  },
};
