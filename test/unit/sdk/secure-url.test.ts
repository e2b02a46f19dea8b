import { describe, expect, it } from "vitest";
import { clientFor, resolveSettings } from "../../../provider/config/index.js";
import { exchangeToken, IrvClient, isLoopbackHost } from "../../../sdk/index.js";

const TOKEN = "s3cr3t-token-value";

describe("plain http", () => {
  it("regression (tokens sent in clear to an http base URL): refuses a non-loopback http base URL, naming the opt-in", () => {
    expect(() => new IrvClient({ baseUrl: "http://irv.example.com", token: TOKEN })).toThrow(
      /the API base URL \(irv:baseUrl\) is plain http on irv\.example\.com.*irv:allowInsecureHttp \(IRV_ALLOW_INSECURE_HTTP=1, client option allowInsecureHttp\)/,
    );
    expect(
      () => new IrvClient({ baseUrl: "http://irv.example.com", token: TOKEN, allowInsecureHttp: true }),
    ).not.toThrow();
  });

  it("regression (workload tokens sent in clear to an http auth URL): refuses a non-loopback http token-exchange URL", () => {
    const options = {
      authUrl: "http://sts.example.com",
      baseUrl: "https://irv.example.com",
      identity: "x",
      identityToken: "oidc-token-value",
    };
    expect(() => exchangeToken(options)).toThrow(/token-exchange URL \(irv:authUrl\) is plain http/);
    expect(() => exchangeToken({ ...options, allowInsecureHttp: true })).not.toThrow();
  });

  it("keeps loopback http (the local emulator) and https allowed", () => {
    for (const baseUrl of [
      "http://127.0.0.1:8080",
      "http://127.1.2.3",
      "http://localhost:1",
      "http://[::1]:8080",
      "https://irv.example.com",
    ])
      expect(() => new IrvClient({ baseUrl, token: TOKEN })).not.toThrow();
    expect(isLoopbackHost("127.0.0.1.example.com")).toBe(false);
    expect(isLoopbackHost("localhost.example.com")).toBe(false);
  });

  it("takes the opt-in from irv:allowInsecureHttp or IRV_ALLOW_INSECURE_HTTP=1 in the provider", () => {
    const env = { IRV_BASE_URL: "http://irv.internal", IRV_TOKEN: TOKEN };
    expect(() => clientFor(resolveSettings(() => undefined, env))).toThrow(/irv:allowInsecureHttp/);
    expect(() =>
      clientFor(resolveSettings(() => undefined, { ...env, IRV_ALLOW_INSECURE_HTTP: "1" })),
    ).not.toThrow();
    expect(() =>
      clientFor(resolveSettings((k) => (k === "irv:allowInsecureHttp" ? "true" : undefined), env)),
    ).not.toThrow();
    expect(() =>
      clientFor(resolveSettings(() => undefined, { ...env, IRV_ALLOW_INSECURE_HTTP: "yes please" })),
    ).toThrow(/must be true\/1 or false\/0/);
  });
});
