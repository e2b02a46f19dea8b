// GroupInvite against the published definitions (group_invites.proto:115-176): the client reads
// answers written the way grpc-gateway writes them (nulls included) and sends exactly the published
// create fields, ttl as a protobuf Duration.
import { describe, expect, it } from "vitest";
import {
  durationMs,
  formatDuration,
  GroupInviteCreateSchema,
  GroupInviteSchema,
  IrvClient,
} from "../../../sdk/index.js";
import { PUBLISHED } from "../../wire-facts.js";
import { keyPaths } from "./key-paths.js";
import { mockApi } from "./mock-api.js";

const INVITE = PUBLISHED.GroupInvite;
const REQUIRED = ["roleUid", "ttl"]; // REQUIRED: group_invites.proto:132, :145-146

const GROUP_UID = "0123456789abcdef0123456789abcdef01234567/0123456789abcdef";
const INVITE_UID = `${GROUP_UID}/fedcba9876543210`;
const ROLE_UID = "5f2c0e1d9a7b4c3e";

// A create answer as the gateway writes it (EmitUnpopulated): every field, code included.
const CREATED = {
  uid: INVITE_UID,
  roleUid: ROLE_UID,
  role: {
    uid: ROLE_UID,
    name: "viewer",
    description: "",
    capabilities: ["CAP_IAM_GROUPS_LIST"],
  },
  email: "dev@example.com",
  expirationTime: "2026-12-02T10:00:00Z",
  singleUse: true,
  code: "invite-code",
  keyId: "key-1",
  createTime: "2026-11-25T10:00:00Z",
};
// A later read: no code (""), no email (""), the role deleted since (null).
const READ = { ...CREATED, role: null, email: "", code: "", keyId: "", singleUse: false };

describe("GroupInvite conformance", () => {
  it("the fixtures hold exactly the published fields (ttl is input only)", () => {
    const published = INVITE.fields.filter((f) => f !== "ttl");
    expect(Object.keys(CREATED).sort()).toEqual([...published].sort());
    expect(Object.keys(CREATED.role).sort()).toEqual([...PUBLISHED["GroupInvite.role"].fields].sort());
  });

  it("reads a create answer: the role hydrated, expirationTime, the code; no updateTime needed", () => {
    const invite = GroupInviteSchema.parse(CREATED);
    expect(invite).toMatchObject({
      uid: INVITE_UID,
      roleUid: ROLE_UID,
      // Capabilities travel as the published enum and read as display names.
      role: { uid: ROLE_UID, name: "viewer", description: undefined, capabilities: ["groups.list"] },
      expirationTime: "2026-12-02T10:00:00Z",
      singleUse: true,
      code: "invite-code",
    });
    expect(invite.updateTime).toBeUndefined();
  });

  it("reads a later answer with null and empty fields as absent", () => {
    const invite = GroupInviteSchema.parse(READ);
    expect(invite.role).toBeUndefined();
    expect(invite.email).toBeUndefined();
    expect(invite.code).toBeUndefined();
    expect(invite.singleUse).toBe(false);
    expect(GroupInviteSchema.parse({ ...READ, expirationTime: null }).expirationTime).toBeUndefined();
  });

  it("sends exactly the published create fields, ttl as protojson's Duration", async () => {
    const { agent, origin, pool } = mockApi();
    let sent: Record<string, unknown> = {};
    pool
      .intercept({
        path: `/iam/v2/groupInvites/${GROUP_UID}`,
        method: "POST",
        body: (b) => {
          sent = JSON.parse(b);
          return true;
        },
      })
      .reply(200, CREATED);
    const client = new IrvClient({ baseUrl: origin, token: "t0ken-value", dispatcher: agent });
    const made = await client.groupInvites.create(GROUP_UID, {
      roleUid: ROLE_UID,
      ttl: "168h",
      email: "dev@example.com",
      singleUse: true,
    });
    expect(made.code).toBe("invite-code");
    expect(sent).toEqual({ roleUid: ROLE_UID, ttl: "604800s", email: "dev@example.com", singleUse: true });
    for (const key of keyPaths(sent)) expect(INVITE.input).toContain(key);
  });

  it("refuses a create body without the published required fields, naming them", () => {
    const r = GroupInviteCreateSchema.safeParse({});
    expect(r.success).toBe(false);
    const paths = r.error?.issues.map((i) => i.path.join(".")).sort();
    expect(paths).toEqual(REQUIRED);
    const bad = GroupInviteCreateSchema.safeParse({ roleUid: ROLE_UID, ttl: "7d" });
    expect(bad.error?.issues[0]).toMatchObject({
      path: ["ttl"],
      message: expect.stringMatching(/^must be a positive duration/),
    });
  });
});

describe("durations", () => {
  it.each([
    ["168h", 604_800_000],
    ["604800s", 604_800_000],
    ["1h30m", 5_400_000],
    ["1.5h", 5_400_000],
    ["90s", 90_000],
    ["0.5s", 500],
  ])("%s is %d ms", (text, ms) => {
    expect(durationMs(text)).toBe(ms);
  });

  it.each(["", "7d", "-1s", "0s", "1h 30m", "h", "1.s", "1ms"])("%j is no duration", (text) => {
    expect(durationMs(text)).toBeUndefined();
  });

  it("formats as protojson writes a Duration", () => {
    expect(formatDuration(604_800_000)).toBe("604800s");
    expect(formatDuration(1_500)).toBe("1.500s");
  });
});
