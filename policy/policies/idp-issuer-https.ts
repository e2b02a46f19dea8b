import type { ResourceValidationPolicy } from "@pulumi/policy";
import { isType } from "../type-tokens.js";

/**
 * `idp-issuer-https` (mandatory): an identity provider's OIDC issuer is an https URL, so its
 * discovery document and keys cannot be swapped in transit.
 *
 * @example
 * new PolicyPack("irv", { policies: [idpIssuerHttps] });
 */
export const idpIssuerHttps: ResourceValidationPolicy = {
  name: "idp-issuer-https",
  description: "Identity provider OIDC issuers are https URLs.",
  enforcementLevel: "mandatory",
  validateResource: (args, reportViolation) => {
    if (!isType(args.type, "IdentityProvider")) return;
    const issuer = args.props.oidc?.issuer;
    if (typeof issuer !== "string") return;
    let https = false;
    try {
      https = new URL(issuer).protocol === "https:";
    } catch {
      // reported below
    }
    if (!https)
      reportViolation(
        `The identity provider's oidc.issuer ${JSON.stringify(issuer)} is not an https URL; logins through it could be forged in transit.`,
      );
  },
};
