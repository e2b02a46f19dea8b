// Advisory events typed as the published oneof (issue 38): `POST /_emulator/advisories` takes each
// kind (detection, fixed with its version, false/true-positive determination, analysis or fix not
// planned, pending upstream fix, patched), each with its note, and refuses an event of no kind or
// of two kinds, or a bad enum name, with code 3 naming the field; the answer writes each event as
// the gateway does, and the typed client reads it back, so a program can ask "fixed, and in which
// version?".
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ADVISORY_EVENT_KINDS, IrvClient } from "../../../sdk/index.js";
import type { ErrorBody, Group, TestEmulator } from "./support.js";
import { detail, startTestEmulator } from "./support.js";

let emu: TestEmulator;
let g: Group;
let client: IrvClient;
beforeAll(async () => {
  emu = await startTestEmulator();
  g = await emu.group("vulns");
  client = new IrvClient({ baseUrl: emu.baseUrl, token: emu.adminToken });
});
afterAll(() => emu.close());

// One event of every published kind, each with its note.
const EVERY_KIND = [
  {
    createTime: "2026-10-01T00:00:00Z",
    author: "scanner@example.com",
    reviewState: "REVIEW_STATE_APPROVED",
    findings: Buffer.from('{"match":"log4j-core"}').toString("base64"),
    detection: { scanv1: { scanner: "grype", componentVersion: "2.14.1", artifactVersion: "2.14.1-r0" } },
  },
  { truePositiveDetermination: { note: "reachable from the request path" } },
  { pendingUpstreamFix: { note: "waiting for 2.15.0" } },
  { fixed: { fixedVersion: "2.15.0-r0", note: "upstream release" }, issue: "CVE-DASH-7" },
  { patched: { patchedVersions: ["2.14.1-r1"], note: "backported JndiLookup removal" } },
  { falsePositiveDetermination: { type: "TYPE_COMPONENT_VULNERABILITY_MISMATCH", note: "other ecosystem" } },
  { analysisNotPlanned: { note: "end of life" } },
  { fixNotPlanned: { note: "upstream abandoned" } },
  { detection: { nvdapi: { cpeSearched: "log4j", cpeFound: "cpe:2.3:a:apache:log4j" } } },
];

const seed = (events: unknown[], advisoryId?: string) =>
  emu.call<{ uid: string; events: Record<string, unknown>[] } & ErrorBody>("POST", "/_emulator/advisories", {
    body: { parentUid: g.uid, aliases: ["CVE-2021-44228"], events, ...(advisoryId ? { advisoryId } : {}) },
  });
const violations = (body: ErrorBody) =>
  detail<{ fieldViolations: { field: string; description: string }[] }>(body, "BadRequest").fieldViolations;

describe("advisory events", () => {
  test("every published kind is seeded, answered as the gateway writes it, and read typed by the client", async () => {
    const made = await seed(EVERY_KIND);
    expect(made.status, made.text).toBe(200);
    const events = made.body.events;
    expect(events.map((e) => ADVISORY_EVENT_KINDS.filter((k) => k in e))).toEqual([
      ["detection"],
      ["truePositiveDetermination"],
      ["pendingUpstreamFix"],
      ["fixed"],
      ["patched"],
      ["falsePositiveDetermination"],
      ["analysisNotPlanned"],
      ["fixNotPlanned"],
      ["detection"],
    ]);
    for (const e of events) expect(e.uid).toMatch(new RegExp(`^${made.body.uid}/[0-9a-f]{16}$`));
    // Unset fields at their defaults; `issue` (optional) only where set; a kind's fields all written.
    expect(events[3]).toMatchObject({
      findings: "",
      author: "",
      reviewer: "",
      reviewState: "REVIEW_STATE_UNSPECIFIED",
      issue: "CVE-DASH-7",
      fixed: {
        fixedVersion: "2.15.0-r0",
        note: "upstream release",
        scannerVersion: "",
        grypeDbBuilt: "",
        grypeDbChecksum: "",
      },
    });
    expect("issue" in (events[1] ?? {})).toBe(false);
    expect(events[0]).toMatchObject({
      createTime: "2026-10-01T00:00:00Z",
      detection: { scanv1: { scanner: "grype" } },
    });

    const advisory = await client.advisories.get(made.body.uid);
    const fixed = advisory.events.find((e) => e.fixed)?.fixed;
    expect(fixed?.fixedVersion).toBe("2.15.0-r0");
    expect(advisory.events.find((e) => e.patched)?.patched?.patchedVersions).toEqual(["2.14.1-r1"]);
    expect(advisory.events.find((e) => e.falsePositiveDetermination)?.falsePositiveDetermination).toEqual({
      type: "TYPE_COMPONENT_VULNERABILITY_MISMATCH",
      note: "other ecosystem",
    });
    expect(advisory.events[0]?.reviewState).toBe("REVIEW_STATE_APPROVED");
    expect(advisory.events[0]?.detection?.scanv1?.componentVersion).toBe("2.14.1");
    expect(advisory.events[8]?.detection?.nvdapi?.cpeFound).toBe("cpe:2.3:a:apache:log4j");
    expect(advisory.events[1]?.issue).toBeUndefined();
  });

  test("an event of no kind, of two kinds, or with an unknown enum name is code 3 naming the field", async () => {
    const none = await seed([{ author: "a" }]);
    expect([none.status, none.body.code]).toEqual([400, 3]);
    expect(violations(none.body)[0]).toEqual({
      field: "events.0",
      description: expect.stringMatching(
        /^must set exactly one of detection, fixed, falsePositiveDetermination/,
      ),
    });
    const two = await seed([{ fixed: { fixedVersion: "1" } }, { fixed: {}, patched: {} }]);
    expect(violations(two.body).map((v) => v.field)).toEqual(["events.1.patched"]);
    expect(violations(two.body)[0]?.description).toMatch(/\(it sets fixed and patched\)$/);
    const state = await seed([{ reviewState: "LGTM", fixNotPlanned: {} }]);
    expect(violations(state.body).map((v) => v.field)).toEqual(["events.0.reviewState"]);
    const type = await seed([{ falsePositiveDetermination: { type: "TYPE_WONTFIX" } }]);
    expect(violations(type.body).map((v) => v.field)).toEqual(["events.0.falsePositiveDetermination.type"]);
    const detections = await seed([{ detection: { manual: {}, nvdapi: {} } }]);
    expect(violations(detections.body).map((v) => v.field)).toEqual(["events.0.detection"]);
  });
});
