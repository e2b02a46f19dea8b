import { z } from "zod";
import type { IrvClient, SentCreate } from "../../sdk/index.js";
import { isBuiltInRole, lostCreateMismatch } from "../../sdk/index.js";
import type { AnyKind } from "../runtime/index.js";
import { KIND_DEFINITIONS } from "../runtime/index.js";
import { revealed } from "./state-secrets.js";

/**
 * What a pending create asked for, to recognise what it made.
 *
 * @example
 * const request: CreateRequest = { parentUid: orgUid, body: { name: "team-a" } };
 */
export interface CreateRequest {
  /** The group the create was sent to. */
  parentUid: string;
  /**
   * The fields the create sent that the service returns, in its names (a `<x>Uid` matches the
   * hydrated `<x>.uid` of the server's); write-only fields are left out.
   */
  body: Record<string, unknown>;
  /**
   * Fields the candidates' filter compares itself, not as sent: a set in any order (an overlay's
   * packages, a binding's tags), an overlay named by uid or by name.
   */
  match?: Record<string, unknown>;
}

/**
 * How `recover` finds what a pending create of one resource kind made: the create it sent, the
 * resources that could be its result, and the provider's kind to turn one into state outputs.
 *
 * @example
 * const kind = RECOVER_KINDS["pulumi-nodejs:dynamic/irv:Group"];
 */
export interface RecoverKind {
  /** The provider's kind (its input and wire types vary by kind). */
  definition: AnyKind;
  /** Uids are flat hex (roles): the parent is in the body (`parentUid`), not a uid prefix. */
  flatUids?: boolean;
  /** Said next to each adopted resource of this kind: what adopting it cannot bring back. */
  adoptNote?: string;
  /**
   * The service gives this kind no creation time (tags, overlays, overlay bindings, subscriptions:
   * their published messages have none), so a match on the parent and every field sent is adopted
   * whenever it was made: why that is safe for the kind.
   */
  timeless?: string;
  /** `inputs` as exported (`--show-secrets`): a secret is an envelope holding its plaintext. */
  request(inputs: Record<string, unknown>): CreateRequest;
  /** Resources under the same parent with the same identifying fields (name; a binding's identity and role). */
  candidates(
    client: IrvClient,
    request: CreateRequest,
  ): Promise<({ uid: string } & Record<string, unknown>)[]>;
}

/**
 * Why `found` is not what the create `sent` made, or undefined when it is: under the parent, with
 * every field sent, created after the create began. A kind without a creation time
 * ({@link RecoverKind.timeless}) is matched on its parent and fields alone.
 *
 * @example
 * recoverMismatch(RECOVER_KINDS[type], candidate, { parentUid, body, startedAt, clockSkewMs: 500 });
 */
export function recoverMismatch(
  kind: RecoverKind,
  found: { uid: string } & Record<string, unknown>,
  sent: SentCreate,
): string | undefined {
  if (kind.timeless === undefined) return lostCreateMismatch(found, sent);
  return lostCreateMismatch(
    { ...found, createTime: new Date(sent.startedAt).toISOString() } as typeof found,
    sent,
  );
}

const Block = z.record(z.string(), z.unknown()).optional();
const GroupRequest = z.object({
  parentUid: z.string(),
  name: z.string(),
  description: z.string().optional(),
});
const IdentityRequest = z.object({
  groupUid: z.string(),
  name: z.string(),
  description: z.string().optional(),
  claimMatch: Block,
  staticKeys: Block,
  awsIdentity: Block,
  servicePrincipal: z.string().optional(),
});
const BindingRequest = z.object({ groupUid: z.string(), identityUid: z.string(), roleUid: z.string() });
const RoleRequest = z.object({
  parentUid: z.string(),
  name: z.string(),
  description: z.string().optional(),
  capabilities: z.array(z.string()),
});
const IdentityProviderRequest = z.object({
  parentUid: z.string(),
  name: z.string(),
  description: z.string().optional(),
  defaultRoleUid: z.string(),
  // Every OIDC setting the service returns (issue 38), so a provider made with other settings is
  // not taken for the lost create; the secret is never returned.
  oidc: z.object({
    issuer: z.string(),
    clientId: z.string(),
    additionalScopes: z.array(z.string()).optional(),
    groupsClaim: z.string().optional(),
    pkceEnabled: z.boolean().optional(),
    correlationRule: z.string().optional(),
  }),
});
const AccountAssociationsRequest = z.object({
  groupUid: z.string(),
  name: z.string(),
  description: z.string().optional(),
  amazon: Block,
  google: Block,
  azure: Block,
  github: Block,
  chainguard: Block,
});
const InviteRequest = z.object({
  groupUid: z.string(),
  roleUid: z.string(),
  email: z.string().optional(),
  singleUse: z.boolean().optional(),
});

const RepoRequest = z.object({
  parentUid: z.string(),
  name: z.string(),
  description: z.string().optional(),
  catalogTier: z.string().optional(),
  bundles: z.array(z.string()).optional(),
  aliases: z.array(z.string()).optional(),
  activeTags: z.array(z.string()).optional(),
  syncConfig: z
    .object({
      source: z.string(),
      google: z.string().optional(),
      amazon: z.string().optional(),
      azure: z.string().optional(),
    })
    .optional(),
  customOverlay: Block,
  readme: z.string().optional(),
});
const TagRequest = z.object({
  repoUid: z.string(),
  name: z.string(),
  digest: z.string(),
  deprecated: z.boolean().optional(),
  bundles: z.array(z.string()).optional(),
});
const OverlayRequest = z.object({
  parentUid: z.string(),
  name: z.string(),
  config: z.object({ contents: z.object({ packages: z.array(z.string()) }) }),
});
const OverlayBindingRequest = z.object({
  repoUid: z.string(),
  overlay: z.string(),
  tags: z.array(z.string()),
});
const SubscriptionRequest = z.object({ parentUid: z.string(), sink: z.string() });
const MappingRequest = z.object({
  identityProviderUid: z.string(),
  externalGroupId: z.string(),
  roleUid: z.string(),
  scope: z.string().optional(),
});

const sameSet = (a: readonly string[], b: readonly string[]) => {
  const sorted = [...b].sort();
  return a.length === b.length && [...a].sort().every((x, i) => x === sorted[i]);
};

const TOKEN = "pulumi-nodejs:dynamic/irv:";

/**
 * One entry per resource kind the provider creates, keyed by type token: a new kind is one entry.
 *
 * @example
 * RECOVER_KINDS[`pulumi-nodejs:dynamic/irv:RoleBinding`]?.request(inputs);
 */
export const RECOVER_KINDS: Readonly<Record<string, RecoverKind>> = {
  [`${TOKEN}Group`]: {
    definition: KIND_DEFINITIONS.Group,
    request(inputs) {
      const { parentUid, ...body } = GroupRequest.parse(revealed(inputs));
      return { parentUid, body };
    },
    candidates: async (client, r) =>
      (await client.groups.list({ childrenOf: r.parentUid, name: String(r.body.name) })).items,
  },
  [`${TOKEN}Identity`]: {
    definition: KIND_DEFINITIONS.Identity,
    request(inputs) {
      const { groupUid, ...body } = IdentityRequest.parse(revealed(inputs));
      return { parentUid: groupUid, body };
    },
    candidates: async (client, r) =>
      (await client.identities.list({ childrenOf: r.parentUid, name: String(r.body.name) })).items,
  },
  [`${TOKEN}RoleBinding`]: {
    definition: KIND_DEFINITIONS.RoleBinding,
    request(inputs) {
      const { groupUid, ...body } = BindingRequest.parse(revealed(inputs));
      return { parentUid: groupUid, body };
    },
    // A binding has no name: the same identity and role in the same group is the same binding.
    candidates: async (client, r) =>
      (await client.roleBindings.collect({ childrenOf: r.parentUid })).filter(
        (b) => b.identity.uid === r.body.identityUid && b.role.uid === r.body.roleUid,
      ),
  },
  [`${TOKEN}Role`]: {
    definition: KIND_DEFINITIONS.Role,
    flatUids: true,
    request(inputs) {
      const { parentUid, ...role } = RoleRequest.parse(revealed(inputs));
      // The service keeps a role's capabilities sorted and once each.
      const capabilities = [...new Set(role.capabilities)].sort();
      return { parentUid, body: { ...role, capabilities } };
    },
    // The group's list: its own roles and the built-in ones (which no create makes).
    candidates: async (client, r) =>
      (await client.roles.list({ childrenOf: r.parentUid, name: String(r.body.name) })).items.filter(
        (role) => !isBuiltInRole(role),
      ),
  },
  [`${TOKEN}IdentityProvider`]: {
    definition: KIND_DEFINITIONS.IdentityProvider,
    // The client secret is never returned: the match is on everything else.
    request(inputs) {
      const { parentUid, defaultRoleUid, ...rest } = IdentityProviderRequest.parse(revealed(inputs));
      return { parentUid, body: { ...rest, defaultRole: defaultRoleUid } };
    },
    candidates: async (client, r) =>
      (await client.identityProviders.list({ childrenOf: r.parentUid, name: String(r.body.name) })).items,
  },
  [`${TOKEN}AccountAssociations`]: {
    definition: KIND_DEFINITIONS.AccountAssociations,
    request(inputs) {
      const { groupUid, ...body } = AccountAssociationsRequest.parse(revealed(inputs));
      return { parentUid: groupUid, body };
    },
    // A group has one association, named by the group's uid.
    candidates: async (client, r) => {
      const found = await client.accountAssociations.find(r.parentUid);
      return found === undefined ? [] : [found];
    },
  },
  [`${TOKEN}GroupInvite`]: {
    definition: KIND_DEFINITIONS.GroupInvite,
    adoptNote:
      "its code was only in the lost answer of the create: if someone needs it, pulumi up --replace this urn",
    // An invite has no name: one in the same group with the same role, email and single use, made
    // after the run began. The ttl is left out: it is input only (the answer has expirationTime).
    request(inputs) {
      const { groupUid, roleUid, email, singleUse } = InviteRequest.parse(revealed(inputs));
      return { parentUid: groupUid, body: { roleUid, email, singleUse: singleUse === true } };
    },
    candidates: async (client, r) =>
      (await client.groupInvites.collect({ childrenOf: r.parentUid })).filter(
        (i) => (i.roleUid ?? i.role?.uid) === r.body.roleUid && i.email === r.body.email,
      ),
  },
  [`${TOKEN}Repo`]: {
    definition: KIND_DEFINITIONS.Repo,
    // The service answers a sync source as a repo uid whatever form was sent (a catalog name), and
    // the README is a call of its own: the match is on everything else.
    request(inputs) {
      const { parentUid, syncConfig, readme: _readme, ...rest } = RepoRequest.parse(revealed(inputs));
      const { source: _source, ...clouds } = syncConfig ?? { source: "" };
      return { parentUid, body: { ...rest, ...(syncConfig === undefined ? {} : { sync_config: clouds }) } };
    },
    candidates: async (client, r) =>
      (await client.repos.list({ childrenOf: r.parentUid, name: String(r.body.name) })).items,
  },
  [`${TOKEN}Tag`]: {
    definition: KIND_DEFINITIONS.Tag,
    timeless:
      "a tag's create creates or updates the tag of its name, so the tag of that name holding the digest sent is what the create made or would make",
    request(inputs) {
      const { repoUid, ...body } = TagRequest.parse(revealed(inputs));
      return { parentUid: repoUid, body };
    },
    candidates: async (client, r) =>
      (await client.tags.list({ childrenOf: r.parentUid, name: String(r.body.name) })).items,
  },
  [`${TOKEN}Overlay`]: {
    definition: KIND_DEFINITIONS.Overlay,
    timeless:
      "an overlay's name is unique in its group: one of that name holding the packages sent is the create's, or an identical one the create would have been refused for",
    request(inputs) {
      const { parentUid, name, config } = OverlayRequest.parse(revealed(inputs));
      return { parentUid, body: { name }, match: { packages: config.contents.packages } };
    },
    candidates: async (client, r) =>
      (await client.overlays.list({ childrenOf: r.parentUid, name: String(r.body.name) })).items.filter((o) =>
        sameSet(o.config.contents?.packages ?? [], r.match?.packages as string[]),
      ),
  },
  [`${TOKEN}OverlayBinding`]: {
    definition: KIND_DEFINITIONS.OverlayBinding,
    timeless:
      "a binding has no name: one under the repo binding the overlay sent (by uid or by name) to the same tags does what the create did",
    request(inputs) {
      const { repoUid, overlay, tags } = OverlayBindingRequest.parse(revealed(inputs));
      return { parentUid: repoUid, body: {}, match: { overlay, tags } };
    },
    candidates: async (client, r) =>
      (await client.overlayBindings.collect({ childrenOf: r.parentUid })).filter(
        (b) =>
          (b.overlay?.uid === r.match?.overlay || b.overlay?.name === r.match?.overlay) &&
          sameSet(b.tags, r.match?.tags as string[]),
      ),
  },
  [`${TOKEN}Subscription`]: {
    definition: KIND_DEFINITIONS.Subscription,
    timeless:
      "a subscription has no name: one in the group sending to the same sink does what the create did",
    request(inputs) {
      const { parentUid, sink } = SubscriptionRequest.parse(revealed(inputs));
      return { parentUid, body: { sink } };
    },
    candidates: async (client, r) =>
      (await client.subscriptions.collect({ childrenOf: r.parentUid })).filter((s) => s.sink === r.body.sink),
  },
  [`${TOKEN}ExternalGroupRoleMapping`]: {
    definition: KIND_DEFINITIONS.ExternalGroupRoleMapping,
    // A mapping has no name: the same external group and role under the identity provider.
    request(inputs) {
      const { identityProviderUid, ...body } = MappingRequest.parse(revealed(inputs));
      return { parentUid: identityProviderUid, body };
    },
    candidates: async (client, r) =>
      (await client.externalGroupRoleMappings.collect({ childrenOf: r.parentUid })).filter(
        (m) => m.externalGroupId === r.body.externalGroupId && m.roleUid === r.body.roleUid,
      ),
  },
};
