// Conformance of the sdk's Advisory with the published v2beta1 message (chainguard-dev/sdk,
// proto/chainguard/platform/vulnerabilities/v2/advisories.proto): fixtures written as the
// gateway writes them (grpc-gateway v2 + protojson EmitUnpopulated), and the List request's filters.
import { describe, expect, it } from "vitest";
import { AdvisorySchema, IrvClient, listEnvelope } from "../../../sdk/index.js";
import { PUBLISHED } from "../../wire-facts.js";
import { mockApi } from "./mock-api.js";

const UID = "0123456789abcdef0123456789abcdef01234567/0123456789abcdef";
const FULL = {
  uid: UID,
  advisoryId: "CGA-xvgw-cvr7-9g2q",
  createTime: "2026-11-21T10:00:00Z",
  updateTime: "2026-11-22T10:00:00.123456Z",
  deleteTime: "2026-11-23T10:00:00Z",
  author: "scanner@example.com",
  artifactName: "log4j",
  artifactType: "apk",
  artifactArchitecture: "x86_64",
  componentName: "log4j-core",
  componentLocation: "/usr/share/java/log4j-core.jar",
  componentType: "java-archive",
  aliases: ["CVE-2021-44228", "GHSA-jfh8-c2jp-5v3q"],
  events: [
    {
      uid: `${UID}/0000000000000001`,
      createTime: "2026-11-21T10:00:00Z",
      findings: "e30=",
      author: "scanner@example.com",
      reviewer: "reviewer@example.com",
      reviewState: "REVIEW_STATE_APPROVED",
      issue: "CVE-DASH-1",
      detection: {
        scanv1: {
          scanner: "grype",
          subpackage: "log4j",
          componentId: "pkg:maven/log4j-core",
          component: "log4j-core",
          componentVersion: "2.14.1",
          componentType: "java-archive",
          componentLocation: "/usr/share/java/log4j-core.jar",
          artifactVersion: "2.14.1-r0",
          scannerVersion: "0.80.0",
          grypeDbBuilt: "2026-11-20T00:00:00Z",
          grypeDbChecksum: "sha256:00",
        },
      },
    },
  ],
  legacyAdvisoryId: "CGA-abcd-efgh-ijkl",
  severities: [
    { type: "TYPE_CVSS_V3", score: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H" },
    { type: "TYPE_CVSS_V4", score: "CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:H/SI:H/SA:H" },
  ],
};
// An advisory with nothing set: EmitUnpopulated writes "" / [] / null, and leaves out the
// `optional` fields (deleteTime, legacyAdvisoryId).
const UNSET = {
  uid: UID,
  advisoryId: "",
  createTime: null,
  updateTime: null,
  author: "",
  artifactName: "",
  artifactType: "",
  artifactArchitecture: "",
  componentName: "",
  componentLocation: "",
  componentType: "",
  aliases: [],
  events: [],
  severities: [],
};

describe("Advisory as the published v2beta1 message", () => {
  it("reads a fully populated advisory, field for field", () => {
    const a = AdvisorySchema.parse(FULL);
    expect(a).toEqual(FULL);
    expect(Object.keys(a).sort(), PUBLISHED.Advisory.source).toEqual([...PUBLISHED.Advisory.fields].sort());
  });

  it("reads events typed, one published kind each (issue 38): a number enum becomes its name, null members are absent", () => {
    const a = AdvisorySchema.parse({
      ...UNSET,
      events: [
        { uid: "e", reviewState: 2, fixed: { fixedVersion: "2.15.0", note: "n" }, patched: null },
        { uid: "f", falsePositiveDetermination: { type: 2 } },
        { uid: "g", patched: { patchedVersions: null, note: "" } },
      ],
    });
    expect(a.events[0]?.reviewState).toBe("REVIEW_STATE_APPROVED");
    expect(a.events[0]?.fixed?.fixedVersion).toBe("2.15.0");
    expect(a.events[0]?.patched).toBeUndefined();
    expect(a.events[1]?.falsePositiveDetermination?.type).toBe("TYPE_COMPONENT_VULNERABILITY_MISMATCH");
    expect(a.events[2]?.patched).toEqual({ patchedVersions: [], note: "" });
  });

  it("reads unset fields leniently: null timestamps and absent optionals as undefined, '' and [] as sent", () => {
    expect(AdvisorySchema.parse(UNSET)).toEqual({
      ...UNSET,
      createTime: undefined,
      updateTime: undefined,
      deleteTime: undefined,
      legacyAdvisoryId: undefined,
    });
    // A writer that leaves lists and strings out (or writes null) reads the same.
    const sparse = AdvisorySchema.parse({
      uid: UID,
      aliases: null,
      severities: [{ type: null, score: null }],
    });
    expect(sparse).toMatchObject({ advisoryId: "", aliases: [], events: [] });
    expect(sparse.severities).toEqual([{ type: "TYPE_UNSPECIFIED", score: "" }]);
  });

  it("reads severity types by name, by number (UseEnumNumbers), and keeps a type it does not know", () => {
    const a = AdvisorySchema.parse({
      ...UNSET,
      severities: [
        { type: 1, score: "AV:N/AC:L/Au:N/C:C/I:C/A:C" },
        { type: "TYPE_CVSS_V3", score: "9.8" },
        { type: 3, score: "x" },
        { type: "TYPE_EPSS", score: "0.97" },
        { type: 9, score: "y" },
      ],
    });
    expect(a.severities.map((s) => s.type)).toEqual([
      "TYPE_CVSS_V2",
      "TYPE_CVSS_V3",
      "TYPE_CVSS_V4",
      "TYPE_EPSS",
      "9",
    ]);
  });

  it("has none of the fields the published message lacks: no name, description, severity or repoUid", () => {
    const a = AdvisorySchema.parse({
      ...FULL,
      name: "CVE-1",
      description: "d",
      severity: "HIGH",
      repoUid: UID,
    });
    expect(a).not.toHaveProperty("name");
    expect(a).not.toHaveProperty("severity");
    expect(a).not.toHaveProperty("description");
    expect(a).not.toHaveProperty("repoUid");
  });

  it("parses a published list page of advisories", () => {
    const page = listEnvelope("advisories", AdvisorySchema).parse({
      advisories: [FULL, UNSET],
      nextPageToken: "",
      totalCount: "2",
      skipped: 0,
    });
    expect(page.items.map((a) => a.advisoryId)).toEqual(["CGA-xvgw-cvr7-9g2q", ""]);
  });
});

describe("the advisories List request", () => {
  it("sends advisory_ids and aliases as keys repeated once per value (advisories.proto:360, :379)", async () => {
    const { agent, origin, pool } = mockApi();
    pool
      .intercept({
        path: `/vulnerabilities/v2/advisories?uidp.descendants_of=${encodeURIComponent(UID)}&advisory_ids=CGA-xvgw-cvr7-9g2q&advisory_ids=CGA-abcd-efgh-ijkl&aliases=CVE-2021-44228&aliases=GHSA-jfh8-c2jp-5v3q&page_size=200`,
        method: "GET",
      })
      .reply(200, { advisories: [FULL], nextPageToken: "", totalCount: "1", skipped: 0 });
    const client = new IrvClient({ baseUrl: origin, token: "t", dispatcher: agent });
    const found = await client.advisories.collect({
      descendantsOf: UID,
      advisoryIds: ["CGA-xvgw-cvr7-9g2q", "CGA-abcd-efgh-ijkl"],
      aliases: ["CVE-2021-44228", "GHSA-jfh8-c2jp-5v3q"],
    });
    expect(found.map((a) => a.uid)).toEqual([UID]);
  });
});
