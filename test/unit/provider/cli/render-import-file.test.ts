import { describe, expect, it } from "vitest";
import type { OrgObject } from "../../../../provider/cli/org-kinds.js";
import { INVITE_NOT_GENERATED } from "../../../../provider/cli/org-kinds.js";
import { renderImportFile } from "../../../../provider/cli/render-import-file.js";

const ROOT = "0123456789abcdef0123456789abcdef01234567";
const PLATFORM = `${ROOT}/0000000000000001`;
const object = (o: Partial<OrgObject> & Pick<OrgObject, "uid" | "className" | "baseName">): OrgObject => ({
  parentUid: ROOT,
  args: {},
  ...o,
});

describe("import-org --format pulumi-import", () => {
  it("writes Pulumi's bulk import file with the native tokens, logical names and uids as ids", () => {
    const { files, skipped } = renderImportFile([
      object({ uid: PLATFORM, className: "Group", baseName: "platform", args: { name: "platform" } }),
      object({
        uid: `${PLATFORM}/0000000000000002`,
        className: "Identity",
        baseName: "ci",
        parentUid: PLATFORM,
      }),
      object({ uid: "abcdef", className: "Role", baseName: "deployer", parentUid: PLATFORM }),
    ]);
    expect(skipped).toEqual([]);
    expect(JSON.parse(files["import.json"] ?? "")).toEqual({
      resources: [
        { type: "irv:iam:Group", name: "platform", id: PLATFORM },
        { type: "irv:iam:Identity", name: "ci", id: `${PLATFORM}/0000000000000002` },
        { type: "irv:iam:Role", name: "deployer", id: "abcdef" },
      ],
    });
  });

  it("leaves out invites and objects with a write-only secret, saying why", () => {
    const idp = object({
      uid: `${PLATFORM}/0000000000000003`,
      className: "IdentityProvider",
      baseName: "sso",
      args: { oidc: { fields: { clientId: "c", clientSecret: { secret: "ssoClientSecret" } } } },
    });
    const invite = object({
      uid: `${PLATFORM}/0000000000000004`,
      className: "GroupInvite",
      baseName: "invite",
      unsupported: INVITE_NOT_GENERATED,
    });
    const { files, skipped } = renderImportFile([idp, invite]);
    expect(JSON.parse(files["import.json"] ?? "")).toEqual({ resources: [] });
    expect(skipped.map((s) => s.object.className)).toEqual(["IdentityProvider", "GroupInvite"]);
    expect(skipped[0]?.reason).toContain("write-only secret");
  });
});
