import type { ResourceValidationPolicy } from "@pulumi/policy";
import { durationMs } from "pulumi-irv/sdk";
import { isType } from "../type-tokens.js";

/**
 * Configuration of {@link inviteExpirationBounded}.
 *
 * @example
 * // policy-config.json: { "invite-expiration-bounded": { "maxDays": 3 } }
 * const { maxDays } = args.getConfig<InviteExpirationConfig>();
 */
export interface InviteExpirationConfig {
  /** The longest an invite may stay valid, in days. Default 7. */
  maxDays?: number;
}

const HOUR = 3_600_000;

/**
 * `invite-expiration-bounded` (advisory): a group invite is valid for at most `maxDays` days
 * (default 7): an invite code that lives long is a credential that leaks.
 *
 * @example
 * // policy-config.json: { "invite-expiration-bounded": { "maxDays": 3 } }
 */
export const inviteExpirationBounded: ResourceValidationPolicy = {
  name: "invite-expiration-bounded",
  description: "Group invites expire within a bounded number of days.",
  enforcementLevel: "advisory",
  configSchema: { properties: { maxDays: { type: "number", default: 7 } } },
  validateResource: (args, reportViolation) => {
    if (!isType(args.type, "GroupInvite")) return;
    const maxDays = args.getConfig<InviteExpirationConfig>().maxDays ?? 7;
    // `ttl`, or the deprecated `expiration` (a time) of 0.x programs.
    const { ttl, expiration } = args.props;
    const lifetime =
      typeof ttl === "string"
        ? durationMs(ttl)
        : typeof expiration === "string"
          ? Date.parse(expiration) - Date.now()
          : undefined;
    if (lifetime === undefined || Number.isNaN(lifetime) || lifetime <= maxDays * 24 * HOUR) return;
    reportViolation(
      `The invite ${JSON.stringify(args.name)} stays valid for ${Math.round(lifetime / HOUR)} hours, more than ${maxDays} days: use a shorter ttl (at most "${maxDays * 24}h").`,
    );
  },
};
