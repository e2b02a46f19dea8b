// The command line: the ready line, a clean exit on SIGTERM and SIGINT, and exit 2 naming the flag
// on a bad command line. Runs the built CLI (emulator/dist/cli.js, the `irv-emulator` bin), building it first when stale.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildCliIfStale, runCli as run } from "./cli-process.js";

const dir = mkdtempSync(join(tmpdir(), "irv-emulator-cli-"));

beforeAll(() => {
  expect(buildCliIfStale()).toBe(true);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("ready line and shutdown", () => {
  test.each(["SIGTERM", "SIGINT"] as const)(
    "prints one JSON ready line, serves, and exits 0 on %s",
    async (signal) => {
      const r = run(["--port", "0", "--admin-token", "cli-admin"]);
      const info = await r.ready;
      expect(Object.keys(info)).toEqual([
        "baseUrl",
        "authUrl",
        "issuerUrl",
        "orgUid",
        "adminToken",
        "grpcTarget",
      ]);
      expect(info.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(info.authUrl).toBe(`${info.baseUrl}/auth`);
      expect(info.issuerUrl).toBe(`${info.baseUrl}/oidc`);
      expect(info.orgUid).toMatch(/^[0-9a-f]{40}$/);
      expect(info.adminToken).toBe("cli-admin");
      // gRPC is served on the same port (issue 38): the ready line names it as gRPC clients do.
      expect(info.grpcTarget).toBe(new URL(info.baseUrl ?? "").host);
      const res = await fetch(`${info.baseUrl}/iam/v2beta1/groups/${info.orgUid}`, {
        headers: { authorization: "Bearer cli-admin" },
      });
      expect(res.status).toBe(200);
      r.child.kill(signal);
      const done = await r.exit;
      expect(done.code).toBe(0);
      expect(done.stdout).toHaveLength(1);
      expect(done.stderr).toBe("");
    },
  );

  test("takes fixtures, faults and a token TTL from flags", async () => {
    const fixtures = join(dir, "f.json");
    writeFileSync(fixtures, JSON.stringify({ groups: [{ name: "cli-fixture", repos: [{ name: "r" }] }] }));
    const r = run(["--fixtures", fixtures, "--faults", "429=1", "--token-ttl", "5"]);
    const info = await r.ready;
    try {
      const limited = await fetch(`${info.baseUrl}/iam/v2beta1/groups?name=cli-fixture`, {
        headers: { authorization: `Bearer ${info.adminToken}` },
      });
      expect(limited.status).toBe(429);
      await fetch(`${info.baseUrl}/_emulator/faults`, {
        method: "POST",
        headers: { authorization: `Bearer ${info.adminToken}`, "content-type": "application/json" },
        body: JSON.stringify({ spec: "none" }),
      });
      const res = await fetch(`${info.baseUrl}/iam/v2beta1/groups?name=cli-fixture`, {
        headers: { authorization: `Bearer ${info.adminToken}` },
      });
      expect(((await res.json()) as { groups: unknown[] }).groups).toHaveLength(1);
    } finally {
      r.child.kill("SIGTERM");
      expect((await r.exit).code).toBe(0);
    }
  });
});

test("--rate-limit limits each caller, --latency delays each request", async () => {
  const r = run(["--rate-limit", "0.1,burst=1", "--latency", "5"]);
  const info = await r.ready;
  try {
    const get = () =>
      fetch(`${info.baseUrl}/iam/v2beta1/roles`, { headers: { authorization: `Bearer ${info.adminToken}` } });
    expect((await get()).status).toBe(200);
    const refused = await get();
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { code: number }).code).toBe(8);
    const faults = await fetch(`${info.baseUrl}/_emulator/faults`, {
      headers: { authorization: `Bearer ${info.adminToken}` },
    });
    expect(await faults.json()).toEqual({ spec: "latency=5" });
  } finally {
    r.child.kill("SIGTERM");
    expect((await r.exit).code).toBe(0);
  }
});

describe("bad command lines exit 2 naming the flag", () => {
  test.each([
    [["--port", "abc"], "--port"],
    [["--port", "70000"], "--port"],
    [["--faults", "503=7"], "--faults"],
    [["--faults", "boom=1"], "--faults"],
    [["--rate-limit", "0"], "--rate-limit"],
    [["--latency", "slow"], "--latency"],
    [["--token-ttl", "0"], "--token-ttl"],
    [["--bogus"], "--bogus"],
    [["--data"], "--data"],
    [["--org-uid", "xyz"], "--org-uid"],
    [["--fixtures", "/nonexistent/fixtures.json"], "--fixtures"],
  ])("%j", async (args, flag) => {
    const done = await run(args).exit;
    expect(done.code).toBe(2);
    expect(done.stderr).toContain(flag);
    expect(done.stdout).toEqual([]);
  });
});
