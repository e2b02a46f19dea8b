// gRPC on the emulator's one port: a client generated from our protos creates, reads, lists, updates
// and deletes groups, identities and role bindings; what it reads equals what HTTP answers once both
// are decoded into the published messages; lists, uidp filters and masks behave as over HTTP; errors
// carry the same code and details; rate limits, faults and stats apply to both transports.
import type { Message } from "@bufbuild/protobuf";
import { equals } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { beforeAll, describe, expect, it } from "vitest";
import type { Group } from "../../../../emulator/grpc/gen/chainguard/platform/iam/v2beta1/groups_pb.js";
import {
  GroupSchema,
  GroupsService,
  ListGroupsResponseSchema,
} from "../../../../emulator/grpc/gen/chainguard/platform/iam/v2beta1/groups_pb.js";
import {
  IdentitiesService,
  IdentitySchema,
} from "../../../../emulator/grpc/gen/chainguard/platform/iam/v2beta1/identities_pb.js";
import {
  RoleBindingSchema,
  RoleBindingsService,
} from "../../../../emulator/grpc/gen/chainguard/platform/iam/v2beta1/role_bindings_pb.js";
import { RolesService } from "../../../../emulator/grpc/gen/chainguard/platform/iam/v2beta1/roles_pb.js";
import { SecurityTokenService } from "../../../../emulator/grpc/gen/platform/oidc/v1/oidc.platform_pb.js";
import { WIRE_REGISTRY } from "../../../../emulator/grpc/index.js";
import type { ErrorBody } from "../support.js";
import { decodeHttp, grpcClient, useGrpcEmulator } from "./grpc-client.js";

const emu = useGrpcEmulator();
let groups: ReturnType<typeof grpcClient<typeof GroupsService>>;
beforeAll(async () => {
  groups = emu.client(GroupsService);
});

async function grpcError(p: Promise<unknown>): Promise<ConnectError> {
  try {
    await p;
  } catch (e) {
    return ConnectError.from(e);
  }
  throw new Error("the call succeeded");
}

// The details of a gRPC error, unpacked from grpc-status-details-bin by their published types.
const detailsOf = (e: ConnectError) =>
  e.details.map((d) => {
    const type = "type" in d ? d.type : d.desc.typeName;
    return { type, ...(e.findDetails(WIRE_REGISTRY.getMessage(type)!)[0] as object) };
  });

let seq = 0;
const name = (prefix: string) => `${prefix}-${++seq}`;

describe("groups over gRPC", () => {
  it("create, get, list, update and delete; each answer equals HTTP's once decoded", async () => {
    const created = await groups.createGroup({
      parent: emu.orgUid,
      group: { name: name("grpc"), description: "made over gRPC" },
    });
    expect(created.uid.startsWith(`${emu.orgUid}/`)).toBe(true);
    await emu.sameAsHttp(GroupSchema, created, `/iam/v2beta1/groups/${created.uid}`);
    const got = await groups.getGroup({ uid: created.uid });
    expect(equals(GroupSchema, got, created)).toBe(true);

    const updated = await groups.updateGroup({
      group: { uid: created.uid, description: "changed", name: "ignored-by-the-mask" },
      updateMask: { paths: ["description"] },
    });
    expect(updated.description).toBe("changed");
    expect(updated.name).toBe(created.name);
    await emu.sameAsHttp(GroupSchema, updated, `/iam/v2beta1/groups/${created.uid}`);

    await groups.deleteGroup({ uid: created.uid });
    const gone = await grpcError(groups.getGroup({ uid: created.uid }));
    expect(gone.code).toBe(Code.NotFound);
    expect((await emu.call("GET", `/iam/v2beta1/groups/${created.uid}`)).status).toBe(404);
  });

  it("an update without a mask changes the fields set, as a PATCH without updateMask does", async () => {
    const g = await emu.group(name("nomask"), undefined, "before");
    const updated = await groups.updateGroup({ group: { uid: g.uid, description: "after" } });
    expect(updated).toMatchObject({ name: g.name, description: "after" });
  });

  it("pages, skip, total count and uidp filters are the same over both transports", async () => {
    const parent = await emu.group(name("pages"));
    const child = await emu.group("a-child", parent.uid);
    for (const n of ["b", "c", "d", "e"]) await emu.group(n, parent.uid);
    await emu.group("grandchild", child.uid);

    for (const uidp of [{ childrenOf: parent.uid }, { descendantsOf: parent.uid }]) {
      const httpFilter = "childrenOf" in uidp ? "uidp.children_of" : "uidp.descendants_of";
      let grpcToken = "";
      let httpToken: string | undefined;
      const grpcPages: string[][] = [];
      const httpPages: string[][] = [];
      do {
        const page = await groups.listGroups({ uidp, pageSize: 2, pageToken: grpcToken, orderBy: "name" });
        grpcPages.push(page.groups.map((x) => x.name));
        grpcToken = page.nextPageToken;
        const h = await emu.ok<{ nextPageToken?: string }>("GET", "/iam/v2beta1/groups", {
          query: {
            [httpFilter]: Object.values(uidp)[0],
            page_size: 2,
            order_by: "name",
            page_token: httpToken,
          },
        });
        const decoded = decodeHttp<Message & { groups: Group[]; totalCount?: bigint }>(
          ListGroupsResponseSchema,
          h,
        );
        httpPages.push(decoded.groups.map((x) => x.name));
        expect(decoded.totalCount).toBe(page.totalCount);
        httpToken = h.nextPageToken || undefined;
      } while (grpcToken !== "");
      expect(httpToken).toBeUndefined();
      expect(grpcPages).toEqual(httpPages);
      expect(grpcPages.flat()).toHaveLength("childrenOf" in uidp ? 5 : 6);
    }

    const skipped = await groups.listGroups({ uidp: { childrenOf: parent.uid }, skip: 3, pageSize: 5 });
    expect(skipped.skipped).toBe(3);
    expect(skipped.groups).toHaveLength(2);
  });

  it("an invalid name is INVALID_ARGUMENT with the same details as the HTTP body", async () => {
    const e = await grpcError(groups.createGroup({ parent: emu.orgUid, group: { name: "Not Valid!" } }));
    expect(e.code).toBe(Code.InvalidArgument);
    const http = await emu.call<ErrorBody>("POST", `/iam/v2beta1/groups/${emu.orgUid}`, {
      body: { name: "Not Valid!" },
    });
    expect(http.status).toBe(400);
    expect(e.rawMessage).toBe(http.body.message);
    const details = detailsOf(e);
    expect(details.map((d) => d.type)).toEqual(http.body.details.map((d) => d["@type"].split("/")[1]));
    expect(details[1]).toMatchObject({
      type: "google.rpc.BadRequest",
      fieldViolations: [{ field: "name" }],
    });
    expect(details[0]).toMatchObject({ reason: "INVALID_ARGUMENT", domain: http.body.details[0]?.domain });
  });

  it("no token is UNAUTHENTICATED; a viewer's write is PERMISSION_DENIED, as over HTTP", async () => {
    const anonymous = grpcClient(GroupsService, emu.baseUrl, undefined);
    expect((await grpcError(anonymous.getGroup({ uid: emu.orgUid }))).code).toBe(Code.Unauthenticated);
    const parent = await emu.group(name("viewer"));
    const viewer = emu.client(GroupsService, await emu.tokenWithRole(parent.uid, "viewer"));
    expect((await viewer.getGroup({ uid: parent.uid })).name).toBe(parent.name);
    const denied = await grpcError(viewer.createGroup({ parent: parent.uid, group: { name: "nope" } }));
    expect(denied.code).toBe(Code.PermissionDenied);
  });
});

describe("identities and role bindings over gRPC", () => {
  it("create, get, list, update and delete an identity and a binding", async () => {
    const identities = emu.client(IdentitiesService);
    const bindings = emu.client(RoleBindingsService);
    const roles = emu.client(RolesService);
    const parent = await emu.group(name("iam"));

    const id = await identities.createIdentity({
      parent: parent.uid,
      identity: {
        name: "ci",
        relationship: {
          case: "claimMatch",
          value: {
            iss: { case: "issuer", value: emu.issuerUrl },
            sub: { case: "subject", value: "repo:ci" },
          },
        },
      },
    });
    await emu.sameAsHttp(IdentitySchema, id, `/iam/v2beta1/identities/${id.uid}`);
    const renamed = await identities.updateIdentity({
      identity: { uid: id.uid, description: "the CI" },
      updateMask: { paths: ["description"] },
    });
    expect(renamed).toMatchObject({ name: "ci", description: "the CI" });
    const listed = await identities.listIdentities({ uidp: { childrenOf: parent.uid } });
    expect(listed.identities.map((x) => x.uid)).toEqual([id.uid]);

    const viewer = (await roles.listRoles({ name: "viewer" })).roles[0];
    const editor = (await roles.listRoles({ name: "editor" })).roles[0];
    expect(viewer?.uid).toBeTruthy();
    const binding = await bindings.createRoleBinding({
      parent: parent.uid,
      roleBinding: { identityUid: id.uid, roleUid: viewer?.uid ?? "" },
    });
    expect(binding.identity?.uid).toBe(id.uid);
    expect(binding.role?.name).toBe("viewer");
    await emu.sameAsHttp(
      RoleBindingSchema,
      await bindings.getRoleBinding({ uid: binding.uid }),
      `/iam/v2beta1/roleBindings/${binding.uid}`,
    );
    const changed = await bindings.updateRoleBinding({
      roleBinding: { uid: binding.uid, roleUid: editor?.uid ?? "" },
      updateMask: { paths: ["role_uid"] },
    });
    expect(changed.role?.name).toBe("editor");
    expect((await bindings.listRoleBindings({ uidp: { childrenOf: parent.uid } })).roleBindings).toHaveLength(
      1,
    );

    // A group with children refuses its delete: FAILED_PRECONDITION naming the child.
    const busy = await grpcError(groups.deleteGroup({ uid: parent.uid }));
    expect(busy.code).toBe(Code.FailedPrecondition);
    const precondition = detailsOf(busy)[1] as {
      type: string;
      violations: { type: string; subject: string }[];
    };
    expect(precondition.type).toBe("google.rpc.PreconditionFailure");
    expect(precondition.violations.map((v) => [v.type, v.subject])).toEqual([
      ["RESOURCE_NOT_EMPTY", id.uid],
      ["RESOURCE_NOT_EMPTY", binding.uid],
    ]);

    await bindings.deleteRoleBinding({ uid: binding.uid });
    await identities.deleteIdentity({ uid: id.uid });
    await groups.deleteGroup({ uid: parent.uid });
    expect((await emu.call("GET", `/iam/v2beta1/identities/${id.uid}`)).status).toBe(404);
  });
});

describe("the token exchange over gRPC", () => {
  it("trades a workload token for an API token the API accepts, over either transport", async () => {
    const parent = await emu.group(name("sts"));
    const id = await emu.identity(parent.uid, "workload", "sts-subject");
    await emu.ok("POST", `/iam/v2beta1/roleBindings/${parent.uid}`, {
      body: { identityUid: id.uid, roleUid: await emu.roleUid("viewer") },
    });
    const workload = await emu.workloadToken("sts-subject");
    const sts = emu.client(SecurityTokenService, workload);
    const { token } = await sts.exchange({ aud: [emu.baseUrl], identity: id.uid });
    expect(token).toMatch(/^ey/);
    expect((await emu.client(GroupsService, token).getGroup({ uid: parent.uid })).name).toBe(parent.name);
    expect((await emu.call("GET", `/iam/v2beta1/groups/${parent.uid}`, { token })).status).toBe(200);
    // What the emulator's STS cannot honour is refused, naming the field, not dropped.
    const capped = await grpcError(
      sts.exchange({ aud: [emu.baseUrl], identity: id.uid, cap: ["CAP_IAM_GROUPS_LIST"] }),
    );
    expect(capped.code).toBe(Code.InvalidArgument);
    expect(capped.rawMessage).toContain("cap: is not supported");
    // A wrong audience is refused as over HTTP.
    const wrong = await grpcError(sts.exchange({ aud: ["https://elsewhere.example"], identity: id.uid }));
    const http = await emu.exchange(workload, id.uid, "https://elsewhere.example");
    expect(wrong.code).toBe(http.body.code);
  });
});

describe("limits, faults and stats apply to gRPC", () => {
  it("a rate limit is RESOURCE_EXHAUSTED with RetryInfo; faults strike; calls are counted", async () => {
    emu.resetStats();
    emu.setRateLimit("1,burst=1");
    try {
      await groups.getGroup({ uid: emu.orgUid });
      const limited = await grpcError(groups.getGroup({ uid: emu.orgUid }));
      expect(limited.code).toBe(Code.ResourceExhausted);
      const retry = detailsOf(limited).find((d) => d.type === "google.rpc.RetryInfo") as
        | { retryDelay?: { seconds: bigint; nanos: number } }
        | undefined;
      expect(retry?.retryDelay).toBeDefined();
      expect(limited.metadata.get("retry-after")).toMatch(/^\d+$/);
    } finally {
      emu.setRateLimit("none");
    }
    emu.setFaults("503=1");
    try {
      const e = await grpcError(groups.getGroup({ uid: emu.orgUid }));
      expect(e.code).toBe(Code.Unavailable);
      expect(e.rawMessage).toContain("injected fault");
    } finally {
      emu.setFaults("none");
    }
    await groups.updateGroup({
      group: { uid: emu.orgUid, description: "root" },
      updateMask: { paths: ["description"] },
    });
    const stats = emu.stats();
    expect(stats.requests["GRPC /chainguard.platform.iam.v2beta1.GroupsService/GetGroup"]).toBe(3);
    expect(stats.requests["GRPC /chainguard.platform.iam.v2beta1.GroupsService/UpdateGroup"]).toBe(1);
    expect(stats.updateMasks).toEqual({ description: 1 });
    expect(stats.rateLimited).toBe(1);
  });
});
