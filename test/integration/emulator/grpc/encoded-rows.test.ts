// The gRPC transport keeps each row's encoding by its stored text (issue 47): what a client reads over
// gRPC must still be the row as it is now, for this caller. A row written over HTTP reads back new over
// gRPC, at both versions; a role binding, whose answer hides its identity's issuer and subject from a
// caller who may not list identities and names its role as the role is named now, answers each caller
// its own; an identity provider's write-only client secret stays out of every answer.
import { equals } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import {
  GroupsService as GroupsServiceV2,
  ListGroupsResponseSchema as ListGroupsResponseSchemaV2,
} from "../../../../emulator/grpc/gen/chainguard/platform/iam/v2/groups_pb.js";
import {
  GroupSchema,
  GroupsService,
  ListGroupsResponseSchema,
} from "../../../../emulator/grpc/gen/chainguard/platform/iam/v2beta1/groups_pb.js";
import {
  IdentityProviderSchema,
  IdentityProvidersService,
} from "../../../../emulator/grpc/gen/chainguard/platform/iam/v2beta1/identity_providers_pb.js";
import {
  ListRoleBindingsResponseSchema,
  RoleBindingsService,
} from "../../../../emulator/grpc/gen/chainguard/platform/iam/v2beta1/role_bindings_pb.js";
import { toWireCapability } from "../../../../sdk/index.js";
import { decodeHttp, useGrpcEmulator } from "./grpc-client.js";

const emu = useGrpcEmulator();

describe("rows kept encoded over gRPC", () => {
  it("a group changed over HTTP lists and reads back changed over gRPC, at v2beta1 and v2", async () => {
    const parent = await emu.group("kept-parent");
    const child = await emu.group("kept-child", parent.uid, "before");
    await emu.group("kept-sibling", parent.uid, "unchanged");
    const beta = emu.client(GroupsService);
    const ga = emu.client(GroupsServiceV2);
    const query = { "uidp.children_of": parent.uid, order_by: "name" };
    const descriptions = async () => ({
      beta: (await beta.listGroups({ uidp: { childrenOf: parent.uid }, orderBy: "name" })).groups.map(
        (g) => g.description,
      ),
      ga: (await ga.listGroups({ uidp: { childrenOf: parent.uid }, orderBy: "name" })).groups.map(
        (g) => g.description,
      ),
      got: [
        (await beta.getGroup({ uid: child.uid })).description,
        (await ga.getGroup({ uid: child.uid })).description,
      ],
    });

    expect(await descriptions()).toEqual({
      beta: ["before", "unchanged"],
      ga: ["before", "unchanged"],
      got: ["before", "before"],
    });
    await emu.ok("PATCH", `/iam/v2beta1/groups/${child.uid}`, { body: { description: "after" } });
    expect(await descriptions()).toEqual({
      beta: ["after", "unchanged"],
      ga: ["after", "unchanged"],
      got: ["after", "after"],
    });

    // The whole page (rows, total count, skip) equals HTTP's once decoded, at both versions.
    const betaPage = await beta.listGroups({
      uidp: { childrenOf: parent.uid },
      orderBy: "name",
      pageSize: 1,
    });
    expect(betaPage.nextPageToken).not.toBe("");
    const betaHttp = await emu.ok<{ nextPageToken: string }>("GET", "/iam/v2beta1/groups", {
      query: { ...query, page_size: 1 },
    });
    // Page tokens are opaque and differ per call; the rest must be equal.
    expect(
      equals(
        ListGroupsResponseSchema,
        { ...betaPage, nextPageToken: "" },
        { ...decodeHttp(ListGroupsResponseSchema, betaHttp), nextPageToken: "" },
      ),
    ).toBe(true);
    const gaPage = await ga.listGroups({ uidp: { childrenOf: parent.uid }, orderBy: "name", skip: 1 });
    expect(gaPage.skipped).toBe(1);
    await emu.sameAsHttp(ListGroupsResponseSchemaV2, gaPage, "/iam/v2/groups", {
      query: { ...query, skip: 1 },
    });
    await emu.sameAsHttp(
      GroupSchema,
      await beta.getGroup({ uid: child.uid }),
      `/iam/v2beta1/groups/${child.uid}`,
    );
  });

  it("role bindings answer each caller its own view, and the role's name as it is now", async () => {
    const team = await emu.group("kept-team");
    const role = await emu.ok<{ uid: string; name: string }>("POST", `/iam/v2beta1/roles/${emu.orgUid}`, {
      body: {
        name: "kept-lister",
        capabilities: ["groups.list", "role_bindings.list"].map(toWireCapability),
      },
    });
    const auditor = await emu.tokenWithRole(team.uid, role.name);
    const viewer = await emu.tokenWithRole(team.uid, "viewer");
    const id = await emu.identity(team.uid, "kept-ci", "kept-secret-subject");
    await emu.ok("POST", `/iam/v2beta1/roleBindings/${team.uid}`, {
      body: { identityUid: id.uid, roleUid: role.uid },
    });
    const listAs = async (token: string) => {
      const page = await emu.client(RoleBindingsService, token).listRoleBindings({
        uidp: { childrenOf: team.uid },
      });
      await emu.sameAsHttp(ListRoleBindingsResponseSchema, page, "/iam/v2beta1/roleBindings", {
        token,
        query: { "uidp.children_of": team.uid },
      });
      return page.roleBindings.find((b) => b.identityUid === id.uid);
    };

    // The auditor may not list identities: no subject, before and after the viewer's call.
    expect((await listAs(auditor))?.identity?.subject).toBe("");
    expect((await listAs(viewer))?.identity?.subject).toBe("kept-secret-subject");
    expect((await listAs(auditor))?.identity?.subject).toBe("");
    expect((await listAs(viewer))?.identity?.subject).toBe("kept-secret-subject");

    // Renaming the role changes no binding's stored text, and every binding answer.
    expect((await listAs(viewer))?.role?.name).toBe("kept-lister");
    await emu.ok("PATCH", `/iam/v2beta1/roles/${role.uid}`, { body: { name: "kept-renamed" } });
    expect((await listAs(viewer))?.role?.name).toBe("kept-renamed");
  });

  it("an identity provider's client secret is in no answer, first or kept", async () => {
    const group = await emu.group("kept-sso");
    const idps = emu.client(IdentityProvidersService);
    const idp = await emu.ok<{ uid: string }>("POST", `/iam/v2beta1/identityProviders/${group.uid}`, {
      body: {
        name: "sso",
        defaultRole: await emu.roleUid("viewer"),
        oidc: { issuer: "https://sso.example.com", clientId: "c", clientSecret: "kept-client-secret" },
      },
    });
    for (let i = 0; i < 2; i++) {
      const got = await idps.getIdentityProvider({ uid: idp.uid });
      const listed = await idps.listIdentityProviders({ uidp: { childrenOf: group.uid } });
      expect(listed.identityProviders).toHaveLength(1);
      for (const answer of [got, listed.identityProviders[0]]) {
        expect(answer?.configuration.case).toBe("oidc");
        expect(answer?.configuration.value).toMatchObject({ clientId: "c", clientSecret: "" });
        await emu.sameAsHttp(
          IdentityProviderSchema,
          answer ?? got,
          `/iam/v2beta1/identityProviders/${idp.uid}`,
        );
      }
    }
  });
});
