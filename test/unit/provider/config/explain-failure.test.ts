// What a user reads when the service refuses a request with 403. Regression (issue 34): the message
// said "the caller (irv:identity (or IRV_IDENTITY)) may not do this: bind it to a role that may…",
// naming neither the capability nor the group, inside nested parentheses.
import { describe, expect, it } from "vitest";
import { explainFailure, neededCapabilities, resolveSettings } from "../../../../provider/config/index.js";
import { ApiError, Code, Status } from "../../../../sdk/index.js";

const ORG = "0123456789abcdef0123456789abcdef01234567";
const TEAM = `${ORG}/0123456789abcdef`;
const denied = (method: string, path: string) =>
  new ApiError({
    method,
    path,
    url: `https://irv.example${path}`,
    httpStatus: 403,
    status: Status.parse({ code: Code.PERMISSION_DENIED, message: "the caller may not do that" }),
  });
const settings = (identity?: string) =>
  resolveSettings((k) => ({ "irv:baseUrl": "https://irv.example", "irv:identity": identity })[k], {});

describe("a 403 from the API", () => {
  it("names the missing capability and the group, without nested parentheses", () => {
    const text = explainFailure(
      denied("POST", `/iam/v2beta1/groups/${TEAM}`),
      settings(`${ORG}/00000000000000aa`),
    );
    expect(text).toBe(
      `https://irv.example/iam/v2beta1/groups/${TEAM}: 403 PERMISSION_DENIED: the caller may not do that; ` +
        `the identity set by irv:identity (or IRV_IDENTITY) needs groups.create on group "${TEAM}": ` +
        "bind it to a role that grants it there or on a group above",
    );
    expect(text).not.toMatch(/\([^)]*\(/);
  });

  it("names both capabilities a published method needs, and irv:token when no identity is set", () => {
    const text = explainFailure(denied("POST", `/iam/v2beta1/identityProviders/${TEAM}`), settings());
    expect(text).toContain(
      `the identity behind irv:token (or IRV_TOKEN) needs identity_providers.create and role_bindings.create on group "${TEAM}": bind it to a role that grants them there or on a group above`,
    );
  });
});

describe("neededCapabilities", () => {
  it("reads the verb from the method and the group from the path: a create's parent, else the uid's governing group", () => {
    expect(neededCapabilities("PATCH", `/iam/v2beta1/identities/${TEAM}/00000000000000aa`)).toEqual({
      capabilities: ["identity.update"],
      group: TEAM,
    });
    expect(neededCapabilities("DELETE", `/iam/v2beta1/groups/${TEAM}`)).toEqual({
      capabilities: ["groups.delete"],
      group: TEAM,
    });
    expect(
      neededCapabilities("GET", `/registry/v2beta1/tags/${TEAM}/00000000000000bb/00000000000000cc`),
    ).toEqual({
      capabilities: ["tag.list"],
      group: TEAM,
    });
    expect(neededCapabilities("DELETE", "/iam/v2beta1/roles/0123abcd")).toEqual({
      capabilities: ["roles.delete"],
      group: undefined,
    });
    expect(neededCapabilities("POST", "/auth/sts/exchange")).toBeUndefined();
  });
});
