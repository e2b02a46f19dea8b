// Every rpc of the contract's services answers over gRPC, decoded strictly into the published
// messages: the read-only kinds (seeded through the control API), roles, identity providers, account
// associations and group invites; and reflection lists exactly the contract's services.
import { equals } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { AccountAssociationsService } from "../../../../emulator/grpc/gen/chainguard/platform/iam/v2beta1/account_associations_pb.js";
import { GroupInvitesService } from "../../../../emulator/grpc/gen/chainguard/platform/iam/v2beta1/group_invites_pb.js";
import {
  IdentityProviderSchema,
  IdentityProvidersService,
} from "../../../../emulator/grpc/gen/chainguard/platform/iam/v2beta1/identity_providers_pb.js";
import {
  RoleSchema,
  RolesService,
} from "../../../../emulator/grpc/gen/chainguard/platform/iam/v2beta1/roles_pb.js";
import {
  RepoSchema,
  ReposService,
} from "../../../../emulator/grpc/gen/chainguard/platform/registry/v2beta1/repos_pb.js";
import {
  TagSchema,
  TagsService,
} from "../../../../emulator/grpc/gen/chainguard/platform/registry/v2beta1/tags_pb.js";
import {
  AdvisoriesService,
  AdvisorySchema,
} from "../../../../emulator/grpc/gen/chainguard/platform/vulnerabilities/v2beta1/advisories_pb.js";
import { ServerReflection } from "../../../../emulator/grpc/gen/grpc/reflection/v1/reflection_pb.js";
import { ServerReflection as ServerReflectionV1alpha } from "../../../../emulator/grpc/gen/grpc/reflection/v1alpha/reflection_pb.js";
import { API_SERVICES } from "../../../../emulator/grpc/index.js";
import { grpcTransport, useGrpcEmulator } from "./grpc-client.js";

const emu = useGrpcEmulator();

describe("read-only kinds", () => {
  it("repos, tags and advisories: get and list equal HTTP's answers", async () => {
    const group = await emu.group("registry");
    const repo = await emu.ok<{ uid: string }>("POST", "/_emulator/repos", {
      body: { parentUid: group.uid, name: "app", aliases: ["latest"] },
    });
    const tag = await emu.ok<{ uid: string }>("POST", "/_emulator/tags", {
      body: { repoUid: repo.uid, name: "v1", digest: `sha256:${"a".repeat(64)}` },
    });
    const advisory = await emu.ok<{ uid: string }>("POST", "/_emulator/advisories", {
      body: { parentUid: group.uid, artifactName: "app", aliases: ["CVE-2021-44228"] },
    });

    const repos = emu.client(ReposService);
    const got = await repos.getRepo({ uid: repo.uid });
    await emu.sameAsHttp(RepoSchema, got, `/registry/v2beta1/repos/${repo.uid}`);
    expect((await repos.listRepos({ uidp: { childrenOf: group.uid } })).repos.map((r) => r.uid)).toEqual([
      repo.uid,
    ]);

    const tags = emu.client(TagsService);
    const gotTag = await tags.getTag({ uid: tag.uid });
    await emu.sameAsHttp(TagSchema, gotTag, `/registry/v2beta1/tags/${tag.uid}`);
    expect((await tags.listTags({ uidp: { childrenOf: repo.uid } })).tags.map((t) => t.name)).toEqual(["v1"]);

    const advisories = emu.client(AdvisoriesService);
    const gotAdvisory = await advisories.getAdvisory({ uid: advisory.uid });
    await emu.sameAsHttp(AdvisorySchema, gotAdvisory, `/vulnerabilities/v2beta1/advisories/${advisory.uid}`);
    const byAlias = await advisories.listAdvisories({ aliases: ["CVE-2021-44228"] });
    expect(byAlias.advisories.map((a) => a.uid)).toEqual([advisory.uid]);
    expect((await advisories.listAdvisories({ aliases: ["CVE-0000-0000"] })).advisories).toEqual([]);
  });
});

describe("the other IAM services", () => {
  it("roles, identity providers, account associations and group invites", async () => {
    const group = await emu.group("iam-rest");
    const roles = emu.client(RolesService);
    const viewer = (await roles.listRoles({ name: "viewer" })).roles[0];
    expect(viewer?.name).toBe("viewer");
    const custom = await roles.createRole({
      parent: group.uid,
      role: { name: "lister", capabilities: [103] },
    });
    expect(equals(RoleSchema, await roles.getRole({ uid: custom.uid }), custom)).toBe(true);
    expect((await roles.updateRole({ role: { uid: custom.uid, description: "lists" } })).description).toBe(
      "lists",
    );
    await roles.deleteRole({ uid: custom.uid });

    const idps = emu.client(IdentityProvidersService);
    const idp = await idps.createIdentityProvider({
      parent: group.uid,
      identityProvider: {
        name: "sso",
        defaultRole: viewer?.uid ?? "",
        configuration: {
          case: "oidc",
          value: {
            issuer: "https://sso.example.com",
            clientId: "c",
            clientSecret: "s",
            additionalScopes: ["email"],
          },
        },
      },
    });
    await emu.sameAsHttp(IdentityProviderSchema, idp, `/iam/v2beta1/identityProviders/${idp.uid}`);
    const idpList = await idps.listIdentityProviders({ uidp: { childrenOf: group.uid } });
    expect(idpList.identityProviders.map((x) => x.uid)).toEqual([idp.uid]);
    const renamed = await idps.updateIdentityProvider({
      identityProvider: { uid: idp.uid, description: "the SSO" },
      updateMask: { paths: ["description"] },
    });
    expect(renamed.description).toBe("the SSO");
    await idps.deleteIdentityProvider({ uid: idp.uid });

    const associations = emu.client(AccountAssociationsService);
    const created = await associations.createAccountAssociation({
      parent: group.uid,
      accountAssociation: { name: "accounts", amazon: { account: "123456789012" } },
    });
    expect(created.amazon?.account).toBe("123456789012");
    expect((await associations.getAccountAssociation({ uid: group.uid })).name).toBe("accounts");
    expect(
      (await associations.listAccountAssociations({ uidp: { childrenOf: group.uid } })).accountAssociations,
    ).toHaveLength(1);
    await associations.deleteAccountAssociation({ uid: group.uid });

    const invites = emu.client(GroupInvitesService);
    const invite = await invites.createGroupInvite({
      parent: group.uid,
      groupInvite: { roleUid: viewer?.uid ?? "", ttl: { seconds: 3600n } },
    });
    expect(invite.code).not.toBe("");
    const read = await invites.getGroupInvite({ uid: invite.uid });
    expect(read.code).toBe("");
    expect((await invites.listGroupInvites({ uidp: { childrenOf: group.uid } })).groupInvites).toHaveLength(
      1,
    );
    await invites.deleteGroupInvite({ uid: invite.uid });
  });
});

describe("server reflection", () => {
  it.each([
    ["v1", ServerReflection],
    ["v1alpha", ServerReflectionV1alpha],
  ] as const)("%s lists the contract's services and serves their files", async (_v, service) => {
    const reflection = createClient(
      service as typeof ServerReflection,
      grpcTransport(emu.baseUrl, undefined),
    );
    async function* questions() {
      yield { messageRequest: { case: "listServices" as const, value: "*" } };
      yield {
        messageRequest: {
          case: "fileContainingSymbol" as const,
          value: "chainguard.platform.iam.v2beta1.GroupsService.CreateGroup",
        },
      };
      yield { messageRequest: { case: "fileByFilename" as const, value: "no/such.proto" } };
    }
    const answers = [];
    for await (const a of reflection.serverReflectionInfo(questions())) answers.push(a.messageResponse);
    expect(answers[0]?.case).toBe("listServicesResponse");
    const names =
      answers[0]?.case === "listServicesResponse" ? answers[0].value.service.map((s) => s.name) : [];
    expect(names).toEqual([
      ...API_SERVICES.map((s) => s.typeName),
      "grpc.reflection.v1.ServerReflection",
      "grpc.reflection.v1alpha.ServerReflection",
    ]);
    expect(answers[1]?.case).toBe("fileDescriptorResponse");
    expect(answers[2]).toMatchObject({ case: "errorResponse", value: { errorCode: 5 } });
  });
});
