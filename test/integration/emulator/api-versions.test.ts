// The GA paths (issue 45): the emulator serves /iam/v2/…, /registry/v2/…, /vulnerabilities/v2/…
// beside v2beta1 from one store, over HTTP and gRPC (`chainguard.platform.<domain>.v2.*`), both in
// reflection: what one version writes the other reads, the same objects in the same shape.
import type { DescMessage, JsonValue, Message } from "@bufbuild/protobuf";
import { equals, fromJson } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  GroupsService as GroupsV2,
  GroupSchema as GroupV2Schema,
} from "../../../emulator/grpc/gen/chainguard/platform/iam/v2/groups_pb.js";
import { GroupsService as GroupsBeta } from "../../../emulator/grpc/gen/chainguard/platform/iam/v2beta1/groups_pb.js";
import { TagsService as TagsV2 } from "../../../emulator/grpc/gen/chainguard/platform/registry/v2/tags_pb.js";
import { answerReflection, WIRE_REGISTRY } from "../../../emulator/grpc/index.js";
import { grpcClient } from "./grpc/grpc-client.js";
import type { TestEmulator } from "./support.js";
import { startTestEmulator } from "./support.js";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());

const decode = <T extends Message>(schema: DescMessage, json: unknown) =>
  fromJson(schema, json as JsonValue, { registry: WIRE_REGISTRY }) as T;

describe("the GA (v2) paths over HTTP", () => {
  it("a group created at v2 is read at v2beta1 and the other way round, the same object", async () => {
    const atV2 = await emu.ok<{ uid: string }>("POST", `/iam/v2/groups/${emu.orgUid}`, {
      body: { name: "made-at-ga" },
    });
    expect(await emu.ok("GET", `/iam/v2beta1/groups/${atV2.uid}`)).toEqual(atV2);
    const atBeta = await emu.group("made-at-beta");
    expect(await emu.ok("GET", `/iam/v2/groups/${atBeta.uid}`)).toEqual(atBeta);
    const [v2, beta] = await Promise.all(
      ["v2", "v2beta1"].map((v) =>
        emu.ok("GET", `/iam/${v}/groups`, { query: { "uidp.children_of": emu.orgUid } }),
      ),
    );
    expect(v2).toEqual(beta);
  });

  it("updates and deletes at v2 change what v2beta1 reads", async () => {
    const g = await emu.group("changed-at-ga");
    const updated = await emu.ok("PATCH", `/iam/v2/groups/${g.uid}`, {
      body: { description: "set at v2" },
      query: { updateMask: "description" },
    });
    expect(await emu.ok("GET", `/iam/v2beta1/groups/${g.uid}`)).toEqual(updated);
    expect((await emu.call("DELETE", `/iam/v2/groups/${g.uid}`)).status).toBe(200);
    expect((await emu.call("GET", `/iam/v2beta1/groups/${g.uid}`)).status).toBe(404);
  });

  it("registry and vulnerabilities answer at v2 as at v2beta1", async () => {
    const g = await emu.group("registry-ga");
    const repo = await emu.ok<{ uid: string }>("POST", "/_emulator/repos", {
      body: { parentUid: g.uid, name: "nginx" },
    });
    await emu.ok("POST", "/_emulator/tags", { body: { repoUid: repo.uid, name: "latest" } });
    for (const path of [
      `/registry/{v}/repos/${repo.uid}`,
      `/registry/{v}/tags?uidp.children_of=${repo.uid}`,
      `/vulnerabilities/{v}/advisories?uidp.descendants_of=${emu.orgUid}`,
    ]) {
      const [v2, beta] = await Promise.all(
        ["v2", "v2beta1"].map((v) => emu.ok("GET", path.replace("{v}", v))),
      );
      expect(v2, path).toEqual(beta);
    }
  });

  it("an unknown version is an unknown route (404), a read-only kind's write at v2 is 405 as at v2beta1", async () => {
    expect((await emu.call("GET", "/iam/v3/groups")).status).toBe(404);
    const v2 = await emu.call("PUT", "/vulnerabilities/v2/advisories/x");
    const beta = await emu.call("PUT", "/vulnerabilities/v2beta1/advisories/x");
    expect(v2.status).toBe(405);
    expect(v2.headers.get("allow")).toBe(beta.headers.get("allow"));
  });
});

describe("the GA (v2) services over gRPC", () => {
  it("chainguard.platform.iam.v2.GroupsService reads what v2beta1 wrote, equal to the HTTP answer once decoded", async () => {
    const ga = grpcClient(GroupsV2, emu.baseUrl, emu.adminToken);
    const beta = grpcClient(GroupsBeta, emu.baseUrl, emu.adminToken);
    const made = await beta.createGroup({ parent: emu.orgUid, group: { name: "grpc-beta" } });
    const read = await ga.getGroup({ uid: made.uid });
    expect(read.name).toBe("grpc-beta");
    expect(
      equals(GroupV2Schema, read, decode(GroupV2Schema, await emu.ok("GET", `/iam/v2/groups/${made.uid}`))),
    ).toBe(true);
    const madeAtGa = await ga.createGroup({ parent: emu.orgUid, group: { name: "grpc-ga" } });
    expect((await beta.getGroup({ uid: madeAtGa.uid })).uid).toBe(madeAtGa.uid);
    await ga.deleteGroup({ uid: madeAtGa.uid });
    expect((await emu.call("GET", `/iam/v2beta1/groups/${madeAtGa.uid}`)).status).toBe(404);
  });

  it("chainguard.platform.registry.v2.TagsService lists what the v2beta1 HTTP list answers", async () => {
    const g = await emu.group("grpc-registry-ga");
    const repo = await emu.ok<{ uid: string }>("POST", "/_emulator/repos", {
      body: { parentUid: g.uid, name: "redis" },
    });
    await emu.ok("POST", "/_emulator/tags", { body: { repoUid: repo.uid, name: "7" } });
    const tags = await grpcClient(TagsV2, emu.baseUrl, emu.adminToken).listTags({
      uidp: { childrenOf: repo.uid },
    });
    const overHttp = await emu.ok<{ tags: { uid: string }[] }>("GET", "/registry/v2beta1/tags", {
      query: { "uidp.children_of": repo.uid },
    });
    expect(tags.tags.map((t) => t.uid)).toEqual(overHttp.tags.map((t) => t.uid));
  });

  it("reflection lists both versions' services and describes the v2 files", () => {
    const listed = answerReflection({ messageRequest: { case: "listServices", value: "*" } });
    const names = listed.case === "listServicesResponse" ? listed.value.service.map((s) => s.name) : [];
    for (const domain of ["iam.v2beta1", "iam.v2", "registry.v2", "vulnerabilities.v2"]) {
      expect(
        names.some((n) => n.startsWith(`chainguard.platform.${domain}.`)),
        domain,
      ).toBe(true);
    }
    const file = answerReflection({
      messageRequest: { case: "fileContainingSymbol", value: "chainguard.platform.iam.v2.GroupsService" },
    });
    expect(file.case).toBe("fileDescriptorResponse");
  });
});
