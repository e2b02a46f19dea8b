import { describe, expect, it } from "vitest";
import { resolveSettings, tokenSourceFor } from "../../../provider/config/index.js";

describe("resolveSettings", () => {
  it("prefers stack config over the environment", () => {
    const s = resolveSettings((k) => ({ "irv:baseUrl": "http://config" })[k], {
      IRV_BASE_URL: "http://env",
      IRV_TOKEN: "env-token",
    });
    expect(s.baseUrl).toBe("http://config");
    expect(s.token).toBe("env-token");
  });

  it("treats an empty config value as unset", () => {
    expect(resolveSettings((k) => (k === "irv:token" ? "" : undefined), { IRV_TOKEN: "env" }).token).toBe(
      "env",
    );
  });
});

describe("tokenSourceFor", () => {
  it("uses the static token when no identity is set", async () => {
    const s = resolveSettings(() => undefined, { IRV_BASE_URL: "http://x", IRV_TOKEN: "abc" });
    expect(await tokenSourceFor(s).getToken()).toBe("abc");
  });

  it("asks for the auth URL when an identity is to be assumed", () => {
    const s = resolveSettings(() => undefined, {
      IRV_BASE_URL: "http://x",
      IRV_IDENTITY: "org/ci",
      IRV_IDENTITY_TOKEN: "t",
    });
    expect(() => tokenSourceFor(s)).toThrow(/irv:authUrl/);
  });

  it("names every way to give credentials when there are none", () => {
    const s = resolveSettings(() => undefined, { IRV_BASE_URL: "http://x" });
    expect(() => tokenSourceFor(s)).toThrow(/irv:token.*IRV_TOKEN.*irv:identity/);
  });
});
