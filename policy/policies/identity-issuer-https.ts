import type { ResourceValidationPolicy } from "@pulumi/policy";
import { isType } from "../type-tokens.js";

/**
 * Configuration of {@link identityIssuerHttps}.
 *
 * @example
 * // policy-config.json, for a stack that uses the local emulator:
 * // { "identity-issuer-https": { "allowLoopbackHttp": true } }
 * const { allowLoopbackHttp } = args.getConfig<IdentityIssuerConfig>();
 */
export interface IdentityIssuerConfig {
  /** Accept `http://` issuers on loopback addresses (a local emulator). Off by default. */
  allowLoopbackHttp?: boolean;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * `identity-issuer-https` (mandatory): an identity trusts tokens only from an https issuer, whose
 * keys cannot be swapped in transit.
 *
 * @example
 * new PolicyPack("irv", { policies: [identityIssuerHttps] });
 */
export const identityIssuerHttps: ResourceValidationPolicy = {
  name: "identity-issuer-https",
  description: "Identity claimMatch issuers are https URLs.",
  enforcementLevel: "mandatory",
  configSchema: { properties: { allowLoopbackHttp: { type: "boolean", default: false } } },
  validateResource: (args, reportViolation) => {
    if (!isType(args.type, "Identity")) return;
    const issuer = args.props.claimMatch?.issuer;
    if (typeof issuer !== "string") return;
    let url: URL | undefined;
    try {
      url = new URL(issuer);
    } catch {
      reportViolation(
        `The identity's claimMatch.issuer ${JSON.stringify(issuer)} is not a URL; use the https URL of the identity provider.`,
      );
      return;
    }
    if (url.protocol === "https:") return;
    if (
      url.protocol === "http:" &&
      LOOPBACK.has(url.hostname) &&
      args.getConfig<IdentityIssuerConfig>().allowLoopbackHttp
    )
      return;
    reportViolation(
      `The identity's claimMatch.issuer ${JSON.stringify(issuer)} is not an https URL; tokens from it could be forged in transit.`,
    );
  },
};
