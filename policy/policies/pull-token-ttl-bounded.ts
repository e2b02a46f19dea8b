import type { ResourceValidationPolicy } from "@pulumi/policy";
import { durationMs } from "pulumi-irv/sdk";
import { isType } from "../type-tokens.js";

/**
 * Configuration of {@link pullTokenTtlBounded}.
 *
 * @example
 * // policy-config.json: { "pull-token-ttl-bounded": { "maxDays": 30 } }
 * const { maxDays } = args.getConfig<PullTokenTtlConfig>();
 */
export interface PullTokenTtlConfig {
  /** The longest a pull token may stay valid, in days. Default 90. */
  maxDays?: number;
}

const HOUR = 3_600_000;
// The provider's default ttl when a program gives none (provider/runtime/kinds/pull-token-kind.ts).
const DEFAULT_TTL = "720h";

/**
 * `pull-token-ttl-bounded` (advisory): a registry pull token is valid for at most `maxDays` days
 * (default 90): a long-lived password in a cluster or a mirror is a credential that leaks, and a
 * short one with `rotateBefore` costs nothing.
 *
 * @example
 * // policy-config.json: { "pull-token-ttl-bounded": { "maxDays": 30 } }
 */
export const pullTokenTtlBounded: ResourceValidationPolicy = {
  name: "pull-token-ttl-bounded",
  description: "Registry pull tokens expire within a bounded number of days.",
  enforcementLevel: "advisory",
  configSchema: { properties: { maxDays: { type: "number", default: 90 } } },
  validateResource: (args, reportViolation) => {
    if (!isType(args.type, "PullToken")) return;
    const maxDays = args.getConfig<PullTokenTtlConfig>().maxDays ?? 90;
    const ttl = typeof args.props.ttl === "string" ? args.props.ttl : DEFAULT_TTL;
    const lifetime = durationMs(ttl);
    if (lifetime === undefined || lifetime <= maxDays * 24 * HOUR) return;
    reportViolation(
      `The pull token ${JSON.stringify(args.name)} stays valid for ${Math.round(lifetime / HOUR)} hours, more than ${maxDays} days: use a shorter ttl (at most "${maxDays * 24}h") and rotateBefore to replace it in time.`,
    );
  },
};
