export { descriptionRequired } from "./description-required.js";
export { groupNamePattern } from "./group-name-pattern.js";
export { type IdentityIssuerConfig, identityIssuerHttps } from "./identity-issuer-https.js";
export { NAMING_DEFAULTS, type NamingConventionConfig, namingConvention } from "./naming-convention.js";
export { noBroadOwnerBinding, type OwnerBindingConfig } from "./no-broad-owner-binding.js";
