import type { FailureHint } from "../../sdk/index.js";
import { ApiError, classifyFailure } from "../../sdk/index.js";
import { neededCapabilities } from "./needed-capabilities.js";
import type { IrvSettings } from "./settings.js";
import { SETTINGS, timeoutMsOf } from "./settings.js";

type Key = keyof typeof SETTINGS;

// `irv:baseUrl (or IRV_BASE_URL)`: the stack config key, and the environment variable behind it.
const key = (k: Key) => `${SETTINGS[k].config} (or ${SETTINGS[k].env})`;

/**
 * Who was refused, and what to grant it: the capabilities the request needed and the group, as the
 * request's method and path tell them (issue 34: "the caller (irv:identity (or IRV_IDENTITY)) may
 * not do this" named neither).
 */
function permissionHint(s: IrvSettings, error: unknown): string {
  const who = s.identity ? `the identity set by ${key("identity")}` : `the identity behind ${key("token")}`;
  const needed = error instanceof ApiError ? neededCapabilities(error.method, error.path) : undefined;
  if (needed === undefined)
    return `${who} may not do this: bind it to a role that may, on this group or one above`;
  const caps = needed.capabilities.join(" and ");
  const where =
    needed.group === undefined
      ? "on the group the role belongs to"
      : `on group ${JSON.stringify(needed.group)}`;
  return `${who} needs ${caps} ${where}: bind it to a role that grants ${needed.capabilities.length > 1 ? "them" : "it"} there or on a group above`;
}

/** What to check, per hint, for a request to the API and for one to the token exchange. */
const CHECK: Record<FailureHint, (s: IrvSettings, exchange: boolean, error?: unknown) => string> = {
  address: (s, exchange) =>
    exchange
      ? `check ${key("authUrl")}, now ${s.authUrl}: is the token exchange served there?`
      : `check ${key("baseUrl")}, now ${s.baseUrl}: is the IRV API served there?`,
  tls: (_s, exchange) =>
    `check the scheme of ${key(exchange ? "authUrl" : "baseUrl")}: an https URL needs a TLS server with a trusted certificate (a plain-HTTP local emulator is http://)`,
  timeout: (s) =>
    `the service did not answer within ${(timeoutMsOf(s) ?? 60_000) / 1000} s on any attempt: check ${key("baseUrl")} and the service's health, or raise ${key("timeoutSeconds")}`,
  credentials: (s, exchange) =>
    exchange
      ? `check ${key("identityTokenFile")} or ${key("identityToken")}: the token exchange refused the workload token`
      : s.identity
        ? `check ${key("identity")}: the API refused the token exchanged for it`
        : `check ${key("token")}: the API does not accept that token (expired, revoked, or for another service)`,
  permission: (s, exchange, error) =>
    exchange
      ? `check ${key("identity")}: the workload token's issuer and subject must match that identity's claimMatch`
      : permissionHint(s, error),
};

/**
 * One sentence for a failed request a user can act on: the full URL, the cause, and the stack
 * config key to check (`irv:baseUrl`, `irv:token`, …). `undefined` for errors that are not about
 * reaching or being let into the service (their own message says what is wrong). Never holds a
 * credential: only URLs (query stripped), codes and the service's own message.
 *
 * @example
 * explainFailure(err, settings);
 * // "http://127.0.0.1:9/registry/v2beta1/repos: connection refused; check irv:baseUrl (or IRV_BASE_URL), now http://127.0.0.1:9: is the IRV API served there?"
 */
export function explainFailure(error: unknown, settings: IrvSettings): string | undefined {
  const failure = classifyFailure(error);
  if (!failure) return undefined;
  const authUrl = settings.authUrl?.replace(/\/+$/, "");
  const exchange = authUrl !== undefined && failure.url?.startsWith(`${authUrl}/`) === true;
  const where = failure.url ?? (exchange ? settings.authUrl : settings.baseUrl) ?? "the IRV API";
  // A refusal by the token exchange is already worded by the workload-token layer, which knows
  // where the token came from (CI system, file, value) and which setting to change.
  if (exchange && (failure.hint === "credentials" || failure.hint === "permission") && error instanceof Error)
    return `${where}: ${error.message}${failure.hint === "permission" ? `; ${CHECK.permission(settings, true)}` : ""}`;
  return `${where}: ${failure.cause}; ${CHECK[failure.hint](settings, exchange, error)}`;
}
