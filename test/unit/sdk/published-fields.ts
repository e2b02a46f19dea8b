// Facts from the service's published v2beta1 definitions (chainguard-dev/sdk, proto/chainguard/
// platform/iam/v2beta1/), field names in their JSON (lowerCamel) form with the line that declares
// them. Written by hand from the definitions, not copied: conformance tests check what the client
// sends and reads against these lists.

/** Fields of `GroupInvite` (`group_invites.proto:115-164`) and what a create may carry. */
export const GROUP_INVITE = {
  /** Every field of the message: uid :125, roleUid :132, role :137, email :141, ttl :145, expirationTime :151, singleUse :154, code :157, keyId :160, createTime :163. */
  fields: [
    "uid",
    "roleUid",
    "role",
    "email",
    "ttl",
    "expirationTime",
    "singleUse",
    "code",
    "keyId",
    "createTime",
  ],
  /** Not OUTPUT_ONLY, so a create body may set them: roleUid (REQUIRED), email, ttl (REQUIRED, INPUT_ONLY), singleUse. */
  input: ["roleUid", "email", "ttl", "singleUse"],
  required: ["roleUid", "ttl"],
  /** `GroupInviteRole` (:167-176). */
  role: ["uid", "name", "description", "capabilities"],
} as const;

/** Fields of `AccountAssociation` (`account_associations.proto:158-252`). */
export const ACCOUNT_ASSOCIATION = {
  /** uid :167, name :173, description :176, amazon :179, google :182, chainguard :188, azure :191, createTime :194, updateTime :197, github :200. */
  fields: [
    "uid",
    "name",
    "description",
    "amazon",
    "google",
    "chainguard",
    "azure",
    "createTime",
    "updateTime",
    "github",
  ],
  /** Not OUTPUT_ONLY: a create or update body may set them (name REQUIRED :173). */
  input: ["name", "description", "amazon", "google", "chainguard", "azure", "github"],
  amazon: ["account"], // :205
  google: ["projectId", "projectNumber"], // :211-213
  github: ["appInstallations"], // :220, map<int64, GitHubAppInstallations>
  githubAppInstallations: ["installations"], // :226
  githubInstallation: ["installationId", "name"], // :232 (int64), :235
  chainguard: ["serviceBindings"], // :242
  azure: ["tenantId", "clientIds"], // :248-250
} as const;

/**
 * Every key path of a JSON value (`github.appInstallations.*.installations.*.installationId`): array
 * indexes and the keys of the objects at `maps` (paths of proto maps) written `*`, so that bodies
 * compare with the tables above.
 */
export function keyPaths(value: unknown, maps: readonly string[] = [], prefix = ""): string[] {
  if (value === null || typeof value !== "object") return [];
  const isMap = Array.isArray(value) || maps.includes(prefix);
  return Object.entries(value).flatMap(([k, v]) => {
    const path = `${prefix === "" ? "" : `${prefix}.`}${isMap ? "*" : k}`;
    return [path, ...keyPaths(v, maps, path)];
  });
}
