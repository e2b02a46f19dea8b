// `recover`'s kind table against the emulator over HTTP: for each kind, the provider's own create
// (the one an interrupted `pulumi up` sent) is found again from the inputs in state — by parent,
// name and the declared fields — and a resource whose declared fields differ is not taken for it.
// Tags, overlays, overlay bindings and subscriptions carry no creation time: they are found on their
// parent and fields alone.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../../emulator/index.js";
import { RECOVER_KINDS, recoverMismatch } from "../../../provider/cli/recover-kinds.js";
import type { Props } from "../../../provider/runtime/index.js";
import { KIND_DEFINITIONS, makeProvider } from "../../../provider/runtime/index.js";
import type { StubType } from "../../../provider/stub/index.js";
import { IrvClient, LOST_CREATE_CLOCK_SKEW_MS } from "../../../sdk/index.js";

let emulator: Awaited<ReturnType<typeof startEmulator>>;
let client: IrvClient;
let groupUid: string;
let viewerUid: string;
let editorUid: string;

beforeAll(async () => {
  emulator = await startEmulator({ host: "127.0.0.1", port: 0 });
  client = new IrvClient({ baseUrl: emulator.baseUrl, token: emulator.adminToken });
  groupUid = (await client.groups.create(emulator.orgUid, { name: "recover" })).uid;
  const role = async (name: string) => (await client.roles.list({ name })).items[0]?.uid ?? "";
  [viewerUid, editorUid] = await Promise.all([role("viewer"), role("editor")]);
});

afterAll(async () => {
  await client.close();
  await emulator.close();
});

// The state's inputs of a create (as the provider got them), and one declared field changed.
interface Case {
  inputs: () => Props | Promise<Props>;
  changed: (inputs: Props) => Props;
}

const JWKS = JSON.stringify({ keys: [{ kty: "EC", crv: "P-256", x: "AAAA", y: "BBBB" }] });
// How `pulumi stack export --show-secrets` writes a secret.
const secret = (v: string) => ({
  "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
  plaintext: JSON.stringify(v),
});

// A pull token an interrupted create made cannot be adopted: its password died with the process
// that signed it, so `recover` has no entry for it (the next `pulumi up` makes a new one).
const CASES: Record<Exclude<StubType, "PullToken">, Case> = {
  Group: {
    inputs: () => ({ parentUid: groupUid, name: "team", description: "the team" }),
    changed: (i) => ({ ...i, description: "another team" }),
  },
  Identity: {
    inputs: () => ({
      groupUid,
      name: "static ci",
      // No expirationTime: the service's default is in what it answers, not in the request.
      staticKeys: { issuer: "https://ci.internal", subject: "d", issuerKeys: JWKS },
    }),
    changed: (i) => ({ ...i, staticKeys: { ...(i.staticKeys as Props), subject: "other" } }),
  },
  RoleBinding: {
    inputs: async () => ({
      groupUid,
      identityUid: (
        await client.identities.create(groupUid, {
          name: "bound",
          claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject: "repo:a/b" },
        })
      ).uid,
      roleUid: viewerUid,
    }),
    changed: (i) => ({ ...i, roleUid: editorUid }),
  },
  Role: {
    inputs: () => ({ parentUid: groupUid, name: "auditor", capabilities: ["roles.list", "groups.list"] }),
    changed: (i) => ({ ...i, capabilities: ["groups.list"] }),
  },
  IdentityProvider: {
    inputs: () => ({
      parentUid: groupUid,
      name: "sso",
      defaultRoleUid: viewerUid,
      oidc: {
        issuer: "https://accounts.example.com",
        clientId: "irv",
        clientSecret: "s3cr3t",
        groupsClaim: "groups",
        pkceEnabled: true,
        correlationRule: "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID",
      },
    }),
    // Issue 38: the OIDC settings the service returns are compared too (another rule is another provider).
    changed: (i) => ({
      ...i,
      oidc: { ...(i.oidc as Props), correlationRule: "CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID" },
    }),
  },
  AccountAssociations: {
    inputs: () => ({ groupUid, name: "clouds", amazon: { account: "123456789012" } }),
    changed: (i) => ({ ...i, amazon: { account: "210987654321" } }),
  },
  GroupInvite: {
    inputs: () => ({ groupUid, roleUid: viewerUid, ttl: "168h", email: "dev@example.com" }),
    changed: (i) => ({ ...i, singleUse: true }),
  },
  Repo: {
    inputs: () => ({
      parentUid: groupUid,
      name: "nginx",
      description: "the web server",
      bundles: ["base"],
      customOverlay: { contents: { packages: ["curl"] } },
    }),
    changed: (i) => ({ ...i, bundles: ["base", "fips"] }),
  },
  Tag: {
    inputs: async () => ({ repoUid: await repo("tagged"), name: "latest", digest: digest(1) }),
    changed: (i) => ({ ...i, digest: digest(2) }),
  },
  Overlay: {
    inputs: () => ({
      parentUid: groupUid,
      name: "tools",
      config: { contents: { packages: ["jq", "curl"] } },
    }),
    changed: (i) => ({ ...i, config: { contents: { packages: ["curl"] } } }),
  },
  OverlayBinding: {
    inputs: async () => {
      const overlay = await client.overlays.create(groupUid, {
        name: "bound-tools",
        config: { contents: { packages: ["bash"] } },
      });
      return { repoUid: await repo("bound"), overlay: overlay.uid, tags: ["latest", "v1"] };
    },
    changed: (i) => ({ ...i, tags: ["latest"] }),
  },
  Subscription: {
    inputs: () => ({ parentUid: groupUid, sink: "https://hooks.example.com/irv" }),
    changed: (i) => ({ ...i, sink: "https://hooks.example.com/other" }),
  },
  ExternalGroupRoleMapping: {
    inputs: async () => ({
      identityProviderUid: (
        await client.identityProviders.create(groupUid, {
          name: "mapped sso",
          defaultRole: viewerUid,
          oidc: { issuer: "https://accounts.example.com", clientId: "irv", clientSecret: "s" },
        })
      ).uid,
      externalGroupId: "platform-admins",
      roleUid: viewerUid,
      scope: emulator.orgUid,
    }),
    changed: (i) => ({ ...i, roleUid: editorUid }),
  },
};

const digest = (n: number) => `sha256:${String(n).repeat(64)}`;
const repo = async (name: string) => (await client.repos.create(groupUid, { name })).uid;

describe("recover finds what an interrupted create made", () => {
  it.each(Object.keys(CASES) as (keyof typeof CASES)[])(
    "%s: by parent, identifying and declared fields",
    async (type) => {
      const kind = RECOVER_KINDS[`pulumi-nodejs:dynamic/irv:${type}`];
      const c = CASES[type];
      if (kind === undefined) throw new Error(`no recover entry for ${type}`);
      const inputs = await c.inputs();
      const startedAt = Date.now();
      const { id } = await makeProvider(KIND_DEFINITIONS[type], () => client).create(inputs);
      // What the state holds: secrets as exported with --show-secrets.
      const exported =
        type === "IdentityProvider"
          ? { ...inputs, oidc: { ...(inputs.oidc as Props), clientSecret: secret("s3cr3t") } }
          : inputs;
      const made = async (state: Props) => {
        const request = kind.request(state);
        const sent = {
          parentUid: kind.flatUids === true ? undefined : request.parentUid,
          body: request.body,
          startedAt,
          clockSkewMs: LOST_CREATE_CLOCK_SKEW_MS,
        };
        const candidates = await kind.candidates(client, request);
        return candidates.map((s) => ({ uid: s.uid, why: recoverMismatch(kind, s, sent) }));
      };
      expect(await made(exported)).toEqual([{ uid: id, why: undefined }]);
      const other = await made(c.changed(exported));
      expect(other.filter((o) => o.why === undefined)).toEqual([]);
    },
  );
});
