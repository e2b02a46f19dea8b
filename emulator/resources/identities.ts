import type { Identity } from "pulumi-irv/sdk";
import { IDENTITY_VARIANTS, MAX_STATIC_KEYS_LIFETIME_MS } from "pulumi-irv/sdk";
import { formatTimestamp, invalidArgument } from "../core/index.js";
import { refuseIdentityTakeover } from "./escalation.js";
import type { KindHooks } from "./kind-context.js";

/**
 * The issuer and subject a role binding shows for its identity: exact values or the patterns, or
 * nothing for AWS and service-principal identities.
 *
 * @example
 * identityIssuerSubject({ claimMatch: { issuer: "https://i", subjectPattern: "repo:acme/.*" } });
 * // { issuer: "https://i", subject: "repo:acme/.*" }
 */
export function identityIssuerSubject(identity: Partial<Identity>): { issuer?: string; subject?: string } {
  const m = identity.claimMatch;
  if (m !== undefined) {
    return { issuer: m.issuer ?? m.issuerPattern ?? "", subject: m.subject ?? m.subjectPattern ?? "" };
  }
  const s = identity.staticKeys;
  if (s !== undefined) return { issuer: s.issuer, subject: s.subject };
  return {};
}

const decidesWho = (path: string) => IDENTITY_VARIANTS.some((v) => path === v || path.startsWith(`${v}.`));

type Fields = Record<string, unknown>;
const isObject = (v: unknown): v is Fields => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Gives static keys their `expirationTime`: "Defaults to / Maximum of 365 days after creation"
 * (`iam/v2beta1/identities.proto:276-278`). Left out, it is creation + 365 days; given, it must be
 * in the future and no later than that (code 3 naming the field). Returns the fields to store.
 *
 * @example
 * withKeysExpiration({ staticKeys: { issuer, subject, issuerKeys } }, createMs, Date.now());
 * // staticKeys.expirationTime = creation + 365 days
 */
export function withKeysExpiration(fields: Fields, createdMs: number, nowMs: number): Fields {
  const keys = fields.staticKeys;
  if (!isObject(keys)) return fields;
  const latest = createdMs + MAX_STATIC_KEYS_LIFETIME_MS;
  if (keys.expirationTime === undefined || keys.expirationTime === null) {
    return { ...fields, staticKeys: { ...keys, expirationTime: formatTimestamp(latest) } };
  }
  const expires = Date.parse(String(keys.expirationTime));
  if (!(expires > nowMs) || expires > latest) {
    throw invalidArgument([
      {
        field: "staticKeys.expirationTime",
        description: `must be in the future and at most 365 days after the identity's creation (${formatTimestamp(latest)})`,
      },
    ]);
  }
  return fields;
}

/**
 * The identity as the gateway writes it (protojson with `EmitUnpopulated`): an unset description
 * is `""`, an unset `lastSeenTime` is `null`, empty maps `{}` and lists `[]`; the members of the
 * `relationship` oneof that are not set are left out (`iam/v2beta1/identities.proto:186-309`).
 *
 * @example
 * publishedIdentity({ uid, name: "ci", claimMatch: { issuer, subject } });
 * // { uid, name: "ci", description: "", claimMatch: { issuer, subject, claims: {}, claimPatterns: {} }, lastSeenTime: null, … }
 */
export function publishedIdentity(stored: Fields): Fields {
  const { uid, name, description, lastSeenTime, createTime, updateTime, ...variants } = stored;
  const out: Fields = { uid, name, description: description ?? "" };
  for (const [k, v] of Object.entries(variants)) {
    if (k === "claimMatch" && isObject(v))
      out[k] = { ...v, claims: v.claims ?? {}, claimPatterns: v.claimPatterns ?? {} };
    else if (k === "staticKeys" && isObject(v))
      out[k] = { ...v, expirationTime: v.expirationTime ?? null, audiences: v.audiences ?? [] };
    else out[k] = v;
  }
  return { ...out, lastSeenTime: lastSeenTime ?? null, createTime, updateTime };
}

/**
 * Identities: whoever changes who may assume one, or deletes it, must hold everything it holds
 * (issue 10 item 8); a delete takes the identity's role bindings with it. Static keys get their
 * expiration (see {@link withKeysExpiration}); answers are in the gateway's form
 * ({@link publishedIdentity}).
 *
 * @example
 * KIND_RULES.identities.hooks === IDENTITY_HOOKS; // true
 */
export const IDENTITY_HOOKS: KindHooks = {
  beforeCreate(_ctx, w) {
    // Only a written expiration is checked here; the default is set with the createTime
    // (`serviceFields`), so it is exactly 365 days after it.
    const keys = w.fields.staticKeys;
    const given = isObject(keys) && keys.expirationTime !== undefined && keys.expirationTime !== null;
    if (given) withKeysExpiration(w.fields, w.now, w.now);
    return w.fields;
  },
  beforeUpdate(ctx, u) {
    // Only a written expiration (or a whole new staticKeys) is checked: keys past their time keep
    // taking other changes.
    if (u.paths.some((p) => p === "staticKeys" || p === "staticKeys.expirationTime")) {
      const created = Date.parse(String(u.current.createTime));
      Object.assign(u.next, withKeysExpiration(u.next, created, ctx.clock()));
    }
    if (u.paths.some(decidesWho)) {
      refuseIdentityTakeover(
        ctx,
        u.caller,
        u.row.uid,
        `change who may assume identity ${JSON.stringify(u.row.uid)}`,
      );
    }
  },
  beforeDelete(ctx, caller, uid) {
    refuseIdentityTakeover(ctx, caller, uid, `delete identity ${JSON.stringify(uid)}`);
    ctx.table.deleteReferringToIdentity(uid);
  },
  output: (_ctx, _caller, data) => JSON.stringify(publishedIdentity(JSON.parse(data) as Fields)),
};
