export { descriptionRequired } from "./description-required.js";
export { groupNamePattern } from "./group-name-pattern.js";
export type { IdentityIssuerConfig } from "./identity-issuer-https.js";
export { identityIssuerHttps } from "./identity-issuer-https.js";
export type { NamingConventionConfig } from "./naming-convention.js";
export { NAMING_DEFAULTS, namingConvention } from "./naming-convention.js";
export type { OwnerBindingConfig } from "./no-broad-owner-binding.js";
export { noBroadOwnerBinding } from "./no-broad-owner-binding.js";
