export { type ApiTokenOptions, ApiTokens, bearer, describeJwtFailure, type Principal } from "./api-tokens.js";
export {
  ISSUER_FETCH_POLICY,
  type IssuerFetchPolicy,
  IssuerKeys,
  IssuerKeysUnavailable,
} from "./issuer-keys.js";
export {
  LocalIssuer,
  MAX_TOKEN_TTL_SECONDS,
  TTL_RULE,
  type WorkloadTokenRequest,
} from "./local-issuer.js";
export { BUILT_IN_ROLES, Caller, type Grant } from "./permissions.js";
export { type KeyStore, loadOrCreateSigningKey, type SigningKey } from "./signing-keys.js";
export { TokenExchange, type TokenExchangeOptions } from "./token-exchange.js";
