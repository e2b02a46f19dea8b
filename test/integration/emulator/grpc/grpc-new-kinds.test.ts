// Issue 45 over gRPC: every new kind's rpcs (repos' writes and readme, tags, overlays, overlay
// bindings, subscriptions, external group role mappings with their batch delete) at v2beta1 and,
// where published, v2; each answer equals what HTTP answers for the same object once decoded.
import { equals } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { beforeAll, describe, expect, it } from "vitest";
import {
  SubscriptionSchema,
  SubscriptionsService,
} from "../../../../emulator/grpc/gen/chainguard/platform/events/v2/subscriptions_pb.js";
import {
  ExternalGroupRoleMappingSchema,
  ExternalGroupRoleMappingsService,
} from "../../../../emulator/grpc/gen/chainguard/platform/iam/v2/external_group_role_mappings_pb.js";
import {
  RepoSchema,
  ReposService,
} from "../../../../emulator/grpc/gen/chainguard/platform/registry/v2/repos_pb.js";
import {
  TagSchema,
  TagsService,
} from "../../../../emulator/grpc/gen/chainguard/platform/registry/v2/tags_pb.js";
import {
  OverlayBindingSchema,
  OverlayBindingsService,
} from "../../../../emulator/grpc/gen/chainguard/platform/registry/v2beta1/overlay_bindings_pb.js";
import {
  OverlaySchema,
  OverlaysService,
} from "../../../../emulator/grpc/gen/chainguard/platform/registry/v2beta1/overlays_pb.js";
import { ReposService as ReposBeta } from "../../../../emulator/grpc/gen/chainguard/platform/registry/v2beta1/repos_pb.js";
import { useGrpcEmulator } from "./grpc-client.js";

const emu = useGrpcEmulator();
let team: string;
beforeAll(async () => {
  team = (await emu.group("grpc-kinds")).uid;
});

async function grpcCode(p: Promise<unknown>): Promise<Code> {
  try {
    await p;
  } catch (e) {
    return ConnectError.from(e).code;
  }
  throw new Error("the call succeeded");
}

describe("registry writes over gRPC", () => {
  it("repos: create, update with a mask, readme, delete; v2beta1 reads what v2 wrote; answers equal HTTP's", async () => {
    const repos = emu.client(ReposService);
    const made = await repos.createRepo({ parent: team, repo: { name: "grpc-repo", bundles: ["base"] } });
    await emu.sameAsHttp(RepoSchema, made, `/registry/v2/repos/${made.uid}`);
    const updated = await repos.updateRepo({
      repo: { uid: made.uid, description: "over gRPC", name: "ignored" },
      updateMask: { paths: ["description"] },
    });
    expect(updated.description).toBe("over gRPC");
    expect(updated.name).toBe("grpc-repo");
    expect((await emu.client(ReposBeta).getRepo({ uid: made.uid })).description).toBe("over gRPC");
    const readme = await repos.updateRepoReadme({ repoReadme: { uid: made.uid, content: "# grpc" } });
    expect(readme).toMatchObject({ uid: made.uid, content: "# grpc" });
    expect((await repos.getRepoReadme({ uid: made.uid })).content).toBe("# grpc");
    const synced = await repos.createRepo({
      parent: team,
      repo: { name: "grpc-mirror", syncConfig: { source: made.uid } },
    });
    expect(synced.syncConfig?.source).toBe(made.uid);
    await emu.sameAsHttp(RepoSchema, synced, `/registry/v2beta1/repos/${synced.uid}`);
    await repos.deleteRepo({ uid: synced.uid });
    await repos.deleteRepo({ uid: made.uid });
    expect(await grpcCode(repos.getRepo({ uid: made.uid }))).toBe(Code.NotFound);
  });

  it("tags: a second create of a name updates the same tag; a repo with tags is FAILED_PRECONDITION to delete", async () => {
    const repo = await emu.client(ReposService).createRepo({ parent: team, repo: { name: "grpc-tagged" } });
    const tags = emu.client(TagsService);
    const first = await tags.createTag({
      parent: repo.uid,
      tag: { name: "latest", digest: `sha256:${"1".repeat(64)}` },
    });
    const second = await tags.createTag({
      parent: repo.uid,
      tag: { name: "latest", digest: `sha256:${"2".repeat(64)}` },
    });
    expect(second.uid).toBe(first.uid);
    await emu.sameAsHttp(TagSchema, second, `/registry/v2/tags/${second.uid}`);
    expect((await tags.listTags({ uidp: { childrenOf: repo.uid } })).tags.map((t) => t.digest)).toEqual([
      second.digest,
    ]);
    expect(await grpcCode(emu.client(ReposService).deleteRepo({ uid: repo.uid }))).toBe(
      Code.FailedPrecondition,
    );
    await tags.deleteTag({ uid: first.uid });
    await emu.client(ReposService).deleteRepo({ uid: repo.uid });
  });

  it("overlays and overlay bindings (v2beta1 only): create by name, the overlay expanded, bound overlays kept", async () => {
    const overlays = emu.client(OverlaysService);
    const bindings = emu.client(OverlayBindingsService);
    const overlay = await overlays.createOverlay({
      parent: team,
      overlay: { name: "grpc-overlay", config: { contents: { packages: ["curl"] } } },
    });
    await emu.sameAsHttp(OverlaySchema, overlay, `/registry/v2beta1/overlays/${overlay.uid}`);
    const repo = await emu.client(ReposService).createRepo({ parent: team, repo: { name: "grpc-bound" } });
    const binding = await bindings.createOverlayBinding({
      parent: repo.uid,
      overlay: "grpc-overlay",
      tags: ["latest"],
    });
    expect(binding.repo).toBe(repo.uid);
    expect(equals(OverlaySchema, binding.overlay as never, overlay as never)).toBe(true);
    await emu.sameAsHttp(OverlayBindingSchema, binding, `/registry/v2beta1/overlayBindings/${binding.uid}`);
    expect(
      (await bindings.listOverlayBindings({ overlay: overlay.uid })).overlayBindings.map((b) => b.uid),
    ).toEqual([binding.uid]);
    expect(await grpcCode(overlays.deleteOverlay({ uid: overlay.uid }))).toBe(Code.FailedPrecondition);
    expect(
      await grpcCode(
        overlays.createOverlay({
          parent: team,
          overlay: { name: "with-env", config: { contents: { packages: ["x"] }, environment: { A: "b" } } },
        }),
      ),
    ).toBe(Code.InvalidArgument);
    await bindings.deleteOverlayBinding({ uid: binding.uid });
    await overlays.deleteOverlay({ uid: overlay.uid });
    await emu.client(ReposService).deleteRepo({ uid: repo.uid });
  });
});

describe("events and IAM over gRPC", () => {
  it("subscriptions: create, get, list, delete; an http sink off loopback is INVALID_ARGUMENT", async () => {
    const subs = emu.client(SubscriptionsService);
    const made = await subs.createSubscription({
      parent: team,
      subscription: { sink: "https://hooks.example.com/grpc" },
    });
    await emu.sameAsHttp(SubscriptionSchema, made, `/events/v2beta1/subscriptions/${made.uid}`);
    expect(
      (await subs.listSubscriptions({ uidp: { childrenOf: team } })).subscriptions.map((s) => s.uid),
    ).toContain(made.uid);
    expect(
      await grpcCode(
        subs.createSubscription({ parent: team, subscription: { sink: "http://hooks.example.com/" } }),
      ),
    ).toBe(Code.InvalidArgument);
    await subs.deleteSubscription({ uid: made.uid });
    expect(await grpcCode(subs.getSubscription({ uid: made.uid }))).toBe(Code.NotFound);
  });

  it("external group role mappings: create under an identity provider, list by it, batch delete", async () => {
    const viewer = await emu.roleUid("viewer");
    const idp = await emu.ok<{ uid: string }>("POST", `/iam/v2/identityProviders/${team}`, {
      body: {
        name: "grpc-sso",
        defaultRole: viewer,
        oidc: { issuer: "https://idp.example.com", clientId: "c", clientSecret: "s" },
      },
    });
    const mappings = emu.client(ExternalGroupRoleMappingsService);
    const made = await mappings.createExternalGroupRoleMapping({
      parent: idp.uid,
      externalGroupRoleMapping: { externalGroupId: "eng", roleUid: viewer, scope: emu.orgUid },
    });
    expect(made.identityProviderUid).toBe(idp.uid);
    await emu.sameAsHttp(
      ExternalGroupRoleMappingSchema,
      made,
      `/iam/v2beta1/externalGroupRoleMappings/${made.uid}`,
    );
    const listed = await mappings.listExternalGroupRoleMappings({ identityProviderUid: idp.uid });
    expect(listed.externalGroupRoleMappings.map((m) => m.uid)).toEqual([made.uid]);
    const deleted = await mappings.batchDeleteExternalGroupRoleMappings({
      parent: idp.uid,
      names: [made.uid],
    });
    expect(deleted.parent).toBe(idp.uid);
    expect(deleted.externalGroupRoleMappings.map((m) => m.uid)).toEqual([made.uid]);
    expect(await grpcCode(mappings.getExternalGroupRoleMapping({ uid: made.uid }))).toBe(Code.NotFound);
  });
});
