// Objects of every writable kind made through the API (not through Pulumi), for the import-org e2e
// and bench: one custom role, identity provider, account associations and invite per group, and
// identities that cycle through every variant; repos (synced with a custom overlay, or of their own
// with bundles and aliases), their tags and overlay bindings, overlays, subscriptions and external
// group role mappings. What one group gets depends only on its index.
import { exportJWK, generateKeyPair } from "jose";
import type { IdentityCreate, IrvClient } from "../../../sdk/index.js";

// How many identity variants identityVariant cycles through.
const VARIANTS = 5;

/**
 * A public JWKS as JSON text, for static identities.
 *
 * @example
 * const keys = await publicJwks();
 */
export async function publicJwks(): Promise<string> {
  const { publicKey } = await generateKeyPair("ES256");
  return JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: "ci-1" }] });
}

/**
 * The variant fields of identity `n` of a group: claimMatch exact, claimMatch with patterns and
 * claims, AWS, static, service principal — in turn.
 *
 * @example
 * await client.identities.create(group, { name: "ci", ...identityVariant(3, "repo:acme/app", jwks) });
 */
export function identityVariant(
  n: number,
  subject: string,
  jwks: string,
): Pick<IdentityCreate, "claimMatch" | "staticKeys" | "awsIdentity" | "servicePrincipal"> {
  switch (n % VARIANTS) {
    case 0:
      return { claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject } };
    case 1:
      return {
        claimMatch: {
          issuer: "https://token.actions.githubusercontent.com",
          subjectPattern: `${subject.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:ref:refs/heads/.+`,
          audience: "irv",
          claims: { repository_owner: "acme", "https://acme.example/team": "platform" },
        },
      };
    case 2:
      return {
        awsIdentity: {
          awsAccount: "123456789012",
          arnPattern: "arn:aws:sts::123456789012:assumed-role/deployer/.+",
          userIdPattern: "AROA[A-Z0-9]+:.+",
        },
      };
    case 3:
      return {
        // No expirationTime: the service sets creation + 365 days.
        staticKeys: { issuer: "https://ci.internal.example", subject, issuerKeys: jwks },
      };
    default:
      return { servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" };
  }
}

/**
 * Creates in `groupUid` the kinds besides groups and identities: a custom role `deployer`, an OIDC
 * identity provider `sso` (default role: the custom role for even `n`, `viewerUid` for odd), account
 * associations `clouds` with blocks depending on `n`, and (for `n % 4 === 0`) an invite with the
 * custom role. Returns the custom role's uid.
 *
 * @example
 * const deployer = await seedGroupKinds(admin, team.uid, 0, viewer);
 */
export async function seedGroupKinds(
  client: IrvClient,
  groupUid: string,
  n: number,
  viewerUid: string,
): Promise<string> {
  const role = await client.roles.create(groupUid, {
    name: "deployer",
    ...(n % 2 === 0 ? { description: "deploys releases" } : {}),
    capabilities: ["groups.list", "identity.list", "repo.list", "tag.list"],
  });
  await Promise.all([
    client.identityProviders.create(groupUid, {
      name: "sso",
      defaultRole: n % 2 === 0 ? role.uid : viewerUid,
      oidc: {
        issuer: "https://accounts.example.com",
        clientId: `client-${n}`,
        clientSecret: `secret-${n}`,
        ...(n % 3 === 0 ? { additionalScopes: ["email", "profile"] } : {}),
      },
    }),
    client.accountAssociations.create(groupUid, {
      name: "clouds",
      ...(n % 2 === 0
        ? { amazon: { account: "123456789012" } }
        : { google: { projectId: `p-${n}`, projectNumber: "42" } }),
      ...(n % 3 === 0
        ? {
            github: { appInstallations: { "77": { installations: [{ installationId: String(1000 + n) }] } } },
          }
        : {}),
      ...(n % 5 === 0 ? { chainguard: { serviceBindings: { INGESTER: `${groupUid.slice(-16)}` } } } : {}),
    }),
    n % 4 === 0
      ? client.groupInvites.create(groupUid, {
          roleUid: role.uid,
          // The emulator takes at most 30 days.
          ttl: "168h",
          email: `dev${n}@example.com`,
        })
      : undefined,
  ]);
  return role.uid;
}

/**
 * A digest for tag `n` (`sha256:` and 64 hex digits).
 *
 * @example
 * await client.tags.create(repo.uid, { name: "latest", digest: digestOf(1) });
 */
export function digestOf(n: number): string {
  return `sha256:${n.toString(16).padStart(64, "0")}`;
}

/**
 * Creates in `groupUid` a repo `name` of its own (bundles and aliases) with `tags` tags and, when
 * `overlayUid` is given, a binding of that overlay to its first tag. Returns the repo's uid.
 *
 * @example
 * const repo = await seedRepo(admin, team.uid, "nginx", 2, tools.uid);
 */
export async function seedRepo(
  client: IrvClient,
  groupUid: string,
  name: string,
  tags: number,
  overlayUid?: string,
): Promise<string> {
  const repo = await client.repos.create(groupUid, {
    name,
    description: `the ${name} image`,
    bundles: ["base"],
    aliases: [`${name}-fips`],
  });
  const names = Array.from({ length: tags }, (_, i) => (i === 0 ? "latest" : `v${i}`));
  await Promise.all(
    names.map((tag, i) => client.tags.create(repo.uid, { name: tag, digest: digestOf(i + 1) })),
  );
  if (overlayUid !== undefined && names[0] !== undefined)
    await client.overlayBindings.create(repo.uid, { overlay: overlayUid, tags: [names[0]] });
  return repo.uid;
}

/**
 * Creates in `groupUid` one object of each registry and events kind, and an external group role
 * mapping on `identityProviderUid` (scoped to `orgUid`, to `roleUid`): an overlay `debug-tools`, a
 * repo of its own `app` with a tag bound to the overlay, a repo `app-mirror` synced from it with a
 * custom overlay, and a subscription. Returns how many resources import-org generates from them.
 *
 * @example
 * objects += await seedRegistryKinds(admin, org, team.uid, sso.uid, viewer);
 */
export async function seedRegistryKinds(
  client: IrvClient,
  orgUid: string,
  groupUid: string,
  identityProviderUid: string,
  roleUid: string,
): Promise<number> {
  const overlay = await client.overlays.create(groupUid, {
    name: "debug-tools",
    config: { contents: { packages: ["curl", "jq"] } },
  });
  const app = await seedRepo(client, groupUid, "app", 1, overlay.uid);
  await Promise.all([
    client.repos.create(groupUid, {
      name: "app-mirror",
      sync_config: { source: app, amazon: "123456789012.dkr.ecr.us-east-1.amazonaws.com/app" },
      customOverlay: { contents: { packages: ["bash"] }, environment: { TZ: "UTC" } },
    }),
    client.subscriptions.create(groupUid, { sink: "https://hooks.example.com/irv/events" }),
    client.externalGroupRoleMappings.create(identityProviderUid, {
      externalGroupId: "platform-admins",
      roleUid,
      scope: orgUid,
    }),
  ]);
  // The overlay, the two repos, the tag, the binding, the subscription and the mapping.
  return 7;
}

/**
 * The number of resources {@link seedGroupKinds} makes that import-org generates (the invite is listed, not generated).
 *
 * @example
 * objects += groups * GENERATED_PER_GROUP;
 */
export const GENERATED_PER_GROUP = 3;

/**
 * The secret config keys a generated program requires (`config.requireSecret("…")`), in order.
 *
 * @example
 * const secrets = secretConfigKeys(readFileSync("index.ts", "utf8")); // ["paymentsSsoClientSecret", …]
 */
export function secretConfigKeys(index: string): string[] {
  return [...index.matchAll(/config\.requireSecret\("([^"]+)"\)/g)].map((m) => m[1] as string);
}
