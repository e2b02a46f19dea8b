// Issue 10 item 11: secrets at rest. The `--data` file (admin token, signing keys, page-token secret)
// is private to its owner, and the local issuer, which mints for anyone who reaches it, refuses
// absurd token lifetimes.
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeJwt } from "jose";
import { afterAll, describe, expect, test } from "vitest";
import { startEmulator } from "../../../emulator/index.js";
import { buildCliIfStale, runCli } from "./cli-process.js";
import type { ErrorBody } from "./support.js";
import { detail, startTestEmulator } from "./support.js";

const dir = mkdtempSync(join(tmpdir(), "irv-emulator-secrets-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const modeOf = (file: string) => statSync(file).mode & 0o777;

describe("the --data file", () => {
  test("regression (the --data file holding the admin token and signing keys was created world-readable): it and its WAL are created 0600", async () => {
    expect(buildCliIfStale()).toBe(true);
    const data = join(dir, "fresh.db");
    const run = runCli(["--data", data]);
    const info = await run.ready;
    try {
      // A write, so the WAL holds secrets too.
      const res = await fetch(`${info.baseUrl}/iam/v2beta1/groups/${info.orgUid}`, {
        method: "POST",
        headers: { authorization: `Bearer ${info.adminToken}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "secret-keeper" }),
      });
      expect(res.status).toBe(200);
      expect(modeOf(data).toString(8)).toBe("600");
      for (const side of [`${data}-wal`, `${data}-shm`]) {
        if (existsSync(side)) expect(modeOf(side).toString(8)).toBe("600");
      }
    } finally {
      run.child.kill("SIGTERM");
      expect((await run.exit).code).toBe(0);
    }
  });

  test("an existing data file that others may read is tightened to 0600", async () => {
    const data = join(dir, "loose.db");
    writeFileSync(data, "");
    chmodSync(data, 0o644);
    const emu = await startEmulator({ data });
    try {
      expect(modeOf(data).toString(8)).toBe("600");
    } finally {
      await emu.close();
    }
  });
});

describe("the local issuer's token lifetimes", () => {
  test("regression (the local issuer minted workload tokens living for years): a lifetime over 24 h is code 3 naming ttlSeconds", async () => {
    const emu = await startTestEmulator();
    try {
      for (const ttlSeconds of [86_401, 1e12, 0, 1.5]) {
        const a = await emu.call<ErrorBody>("POST", `${emu.issuerUrl}/token`, {
          token: "",
          body: { subject: "ci", ttlSeconds },
        });
        expect(a.status, String(ttlSeconds)).toBe(400);
        expect(detail<{ fieldViolations: unknown[] }>(a.body, "BadRequest").fieldViolations).toEqual([
          {
            field: "ttlSeconds",
            description: "must be a whole number of seconds from 1 to 86400 (24 hours)",
          },
        ]);
      }
      const day = await emu.ok<{ token: string }>("POST", `${emu.issuerUrl}/token`, {
        token: "",
        body: { subject: "ci", ttlSeconds: 86_400 },
      });
      const claims = decodeJwt(day.token);
      expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(86_400);
      await expect(emu.mintIdentityToken({ subject: "ci", ttlSeconds: 10 * 86_400 })).rejects.toThrow(
        /ttlSeconds: must be a whole number of seconds from 1 to 86400/,
      );
    } finally {
      await emu.close();
    }
  });

  test("exchanged API tokens are capped at 24 h too", async () => {
    await expect(startEmulator({ tokenTtlSeconds: 86_401 })).rejects.toThrow(/tokenTtlSeconds must be/);
  });
});
