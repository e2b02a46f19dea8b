import type { JsonObject } from "@bufbuild/protobuf";
import { ancestorUid } from "../core/index.js";

/**
 * Where an event's `group` extension comes from, as the published `*.event.go` files compute it from
 * the body's uid: the uid itself (`self`), its parent group (`parent`), its root (`root`), or the
 * group the service core says governs the object (`scope`: custom roles, whose uids are flat).
 *
 * @example
 * const from: GroupFrom = "parent";
 */
export type GroupFrom = "self" | "parent" | "root" | "scope";

/**
 * What the published package makes of one body message: the group of its events, the
 * `identityprovider` extension, and its `CloudEventsRedact()` (what of the body is sent).
 *
 * @example
 * BODY_RULES.GroupInvite?.redact?.({ uid: "a/b", code: "secret", expirationTime: "…" }); // { uid, expirationTime }
 */
export interface BodyRule {
  group: GroupFrom;
  /** The `identityprovider` extension: a body field, or the parent of the uid. */
  identityProvider?: { field: string } | "parent";
  /** The body that is sent; undefined sends none (`omitempty` of a nil body). */
  redact?: (body: JsonObject) => JsonObject | undefined;
}

// Keeps only the named fields of an object (the published redactions copy field by field, so that a
// field added later is not sent unless someone decides it may be).
function keep(body: JsonObject, fields: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const f of fields) if (body[f] !== undefined) out[f] = body[f];
  return out;
}

function keepNested(body: JsonObject, key: string, fields: readonly string[]): JsonObject | undefined {
  const value = body[key];
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? keep(value, fields)
    : undefined;
}

// proto/chainguard/platform/iam/v2beta1/identity_providers.event.go: the client secret and the
// timestamps are left out; the SCIM block keeps its listed fields only.
function redactIdentityProvider(body: JsonObject): JsonObject {
  const out = keep(body, ["uid", "name", "description", "defaultRole"]);
  const oidc = keepNested(body, "oidc", [
    "issuer",
    "clientId",
    "additionalScopes",
    "groupsClaim",
    "pkceEnabled",
    "correlationRule",
  ]);
  if (oidc !== undefined) out.oidc = oidc;
  const scim = keepNested(body, "scim", [
    "enabled",
    "endpointUrl",
    "tokenExpireTime",
    "previousTokenExpireTime",
    "credentialState",
    "etag",
  ]);
  if (scim !== undefined) out.scim = scim;
  return out;
}

/**
 * The rules of each body message by its name without the package (`Group`, `DeleteGroupRequest`), so
 * that the GA copies (`…v2`) read the same. Sources, in chainguard-dev/sdk:
 * `proto/chainguard/platform/{iam,registry,events}/v2beta1/*.event.go`. A message not listed takes
 * the parent of its uid, which most kinds do.
 *
 * @example
 * BODY_RULES.DeleteGroupRequest?.group; // "parent"
 */
export const BODY_RULES: Readonly<Record<string, BodyRule>> = {
  Group: { group: "self" },
  DeleteGroupRequest: { group: "parent" },
  Identity: { group: "parent" },
  DeleteIdentityRequest: { group: "parent" },
  // roles.event.go takes the parent of the uid; the emulator's custom-role uids are flat, so a role's
  // event names the group the role was made in (docs/contract-decisions.md).
  Role: { group: "scope" },
  DeleteRoleRequest: { group: "scope" },
  RoleBinding: { group: "parent" },
  DeleteRoleBindingRequest: { group: "parent" },
  IdentityProvider: { group: "parent", redact: redactIdentityProvider },
  DeleteIdentityProviderRequest: { group: "parent" },
  // The uid of an account association is its group's.
  AccountAssociation: { group: "self" },
  DeleteAccountAssociationRequest: { group: "self", redact: () => undefined },
  GroupInvite: { group: "parent", redact: (b) => keep(b, ["uid", "expirationTime"]) },
  DeleteGroupInviteRequest: { group: "parent" },
  ExternalGroupRoleMapping: { group: "root", identityProvider: { field: "identityProviderUid" } },
  DeleteExternalGroupRoleMappingRequest: { group: "root", identityProvider: "parent" },
  // A batch's subject is its identity provider (the response's parent), whose root is the group.
  BatchDeleteExternalGroupRoleMappingsResponse: { group: "root", identityProvider: { field: "parent" } },
  Subscription: { group: "parent" },
  DeleteSubscriptionRequest: { group: "parent" },
  Repo: { group: "parent" },
  DeleteRepoRequest: { group: "parent" },
  // The readme's uid is its repo's.
  RepoReadme: { group: "parent" },
  Tag: { group: "root" },
  DeleteTagRequest: { group: "root" },
  Overlay: { group: "root" },
  DeleteOverlayRequest: { group: "root" },
  OverlayBinding: { group: "root" },
  DeleteOverlayBindingRequest: { group: "root" },
};

/**
 * The rule of a body message (by full or short name).
 *
 * @example
 * bodyRule("chainguard.platform.iam.v2beta1.Group").group; // "self"
 */
export function bodyRule(typeName: string): BodyRule {
  return BODY_RULES[typeName.slice(typeName.lastIndexOf(".") + 1)] ?? { group: "parent" };
}

/**
 * The group an event names, by its rule: `scope` is the governing group the core gave.
 *
 * @example
 * eventGroup("parent", "org/team/id", "org/team"); // "org/team"
 */
export function eventGroup(from: GroupFrom, uid: string, scope: string): string {
  switch (from) {
    case "self":
      return uid;
    case "parent":
      return ancestorUid(uid, 1) ?? uid;
    case "root":
      return uid.split("/")[0] ?? uid;
    case "scope":
      return scope;
  }
}
