// Conformance of the sdk's Tag with the published v2beta1 message (chainguard-dev/sdk,
// proto/chainguard/platform/registry/v2/tags.proto:111-137), as the gateway writes it
// (grpc-gateway v2 + protojson EmitUnpopulated). The published Tag has no createTime.
import { describe, expect, it } from "vitest";
import { IrvClient, TagSchema } from "../../../sdk/index.js";
import { PUBLISHED } from "../../wire-facts.js";
import { mockApi } from "./mock-api.js";

const REPO = "0123456789abcdef0123456789abcdef01234567/0123456789abcdef";
const UID = `${REPO}/00000000000000aa`;
const FULL = {
  uid: UID,
  name: "latest",
  digest: "sha256:0f3a",
  updateTime: "2026-11-22T10:00:00Z",
  deprecated: true,
  bundles: ["web"],
};

describe("Tag as the published v2beta1 message", () => {
  it("reads a published tag, which carries no createTime", () => {
    const t = TagSchema.parse(FULL);
    expect(t).toEqual({ ...FULL, createTime: undefined });
    const published: readonly string[] = PUBLISHED.Tag.fields;
    expect(
      Object.keys(t).filter((k) => !published.includes(k)),
      PUBLISHED.Tag.source,
    ).toEqual([]);
    expect(t.createTime).toBeUndefined();
  });

  it("reads unset fields leniently: a null updateTime, '' digest, false, []", () => {
    expect(
      TagSchema.parse({ uid: UID, name: "v1", digest: "", updateTime: null, deprecated: false, bundles: [] }),
    ).toEqual({
      uid: UID,
      name: "v1",
      digest: "",
      createTime: undefined,
      updateTime: undefined,
      deprecated: false,
      bundles: [],
    });
    expect(TagSchema.parse({ uid: UID, name: "v1" })).toMatchObject({
      digest: "",
      deprecated: false,
      bundles: [],
    });
  });

  it("still reads a createTime a service sends (the spec's 'every resource carries both')", () => {
    expect(TagSchema.parse({ ...FULL, createTime: "2026-11-21T10:00:00Z" }).createTime).toBe(
      "2026-11-21T10:00:00Z",
    );
  });

  it("lists a repo's tags from a published page", async () => {
    const { agent, origin, pool } = mockApi();
    pool
      .intercept({
        path: `/registry/v2/tags?uidp.children_of=${encodeURIComponent(REPO)}&page_size=200`,
        method: "GET",
      })
      .reply(200, { tags: [FULL], nextPageToken: "", totalCount: "1", skipped: 0 });
    const client = new IrvClient({ baseUrl: origin, token: "t", dispatcher: agent });
    expect(await client.tags.collect({ childrenOf: REPO })).toEqual([{ ...FULL, createTime: undefined }]);
  });
});
