import { describe, expect, test } from "vitest";
import { parseCliArgs, UsageError } from "../../../emulator/cli-args.js";

describe("parseCliArgs", () => {
  test("maps every flag of the guide to an option", () => {
    expect(
      parseCliArgs([
        "--host",
        "0.0.0.0",
        "--port",
        "8080",
        "--data",
        "state.db",
        "--fixtures",
        "f.json",
        "--admin-token",
        "tok",
        "--faults",
        "503=0.1",
        "--latency",
        "30",
        "--rate-limit",
        "50,burst=100",
        "--token-ttl",
        "5",
        "--trusted-issuer",
        "https://a.example",
        "--trusted-issuer",
        "https://b.example",
        "--delivery-retries",
        "2",
        "--delivery-timeout",
        "250",
        "--log",
      ]),
    ).toEqual({
      help: false,
      options: {
        host: "0.0.0.0",
        port: 8080,
        data: "state.db",
        fixtures: "f.json",
        adminToken: "tok",
        faults: "503=0.1",
        latencyMs: 30,
        rateLimit: "50,burst=100",
        tokenTtlSeconds: 5,
        trustedIssuers: ["https://a.example", "https://b.example"],
        deliveryRetries: 2,
        deliveryTimeoutMs: 250,
        log: true,
      },
    });
  });

  test("no flags give no options (every default applies)", () => {
    expect(parseCliArgs([])).toEqual({ help: false, options: {} });
    expect(parseCliArgs(["--help"])).toEqual({ help: true });
  });

  test.each([
    [["--port", "-1"], "--port"],
    [["--port", "1.5"], "--port"],
    [["--token-ttl", "abc"], "--token-ttl"],
    [["--faults", "reset=2"], "--faults"],
    [["--rate-limit", "fast"], "--rate-limit"],
    [["--rate-limit", "50,burst=0"], "--rate-limit"],
    [["--latency", "-5"], "--latency"],
    [["--org-uid", "ABC"], "--org-uid"],
    [["--trusted-issuer", "ftp://x"], "--trusted-issuer"],
    [["--admin-token", "has space"], "--admin-token"],
    [["--delivery-retries", "21"], "--delivery-retries"],
    [["--delivery-timeout", "0"], "--delivery-timeout"],
    [["--nope"], "--nope"],
    [["positional"], "positional"],
  ])("refuses %j with a message naming %s", (args, flag) => {
    expect(() => parseCliArgs(args)).toThrow(UsageError);
    expect(() => parseCliArgs(args)).toThrow(flag);
  });
});
