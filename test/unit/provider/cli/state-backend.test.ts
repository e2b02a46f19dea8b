import { describe, expect, it } from "vitest";
import { loadPg, maskedUrl } from "../../../../provider/cli/postgres-backend.js";
import { isStackLock, lockTime } from "../../../../provider/cli/stack-lock.js";
import { stateBackend } from "../../../../provider/cli/state-backend.js";

describe("the locks of a DIY backend", () => {
  it("belong to a stack by its project and name, or by name in the layout before projects", () => {
    expect(isStackLock("organization/infra/dev/7f3a.json", "dev", "infra")).toBe(true);
    expect(isStackLock("organization/other/dev/7f3a.json", "dev", "infra")).toBe(false);
    expect(isStackLock("organization/infra/dev/7f3a.json", "dev")).toBe(true);
    expect(isStackLock("dev/7f3a.json", "dev", "infra")).toBe(true);
    expect(isStackLock("organization/infra/prod/7f3a.json", "dev", "infra")).toBe(false);
    expect(isStackLock("organization/infra/dev/7f3a.json.attrs", "dev", "infra")).toBe(false);
  });

  it("began at the lock's timestamp, as the CLI writes it (nanoseconds, any offset)", () => {
    expect(lockTime('{"pid":1,"timestamp":"2026-11-25T17:30:00.123456789+01:00"}')).toBe(
      Date.parse("2026-11-25T16:30:00.123Z"),
    );
    expect(lockTime("")).toBeUndefined();
    expect(lockTime('{"pid":1}')).toBeUndefined();
  });
});

describe("stateBackend", () => {
  it("reads the locks of a file and a PostgreSQL backend, not of the Pulumi Cloud or a bucket", () => {
    expect(stateBackend("file:///tmp/state").readsLocks).toBe(true);
    expect(stateBackend("postgres://ci:pw@db:5432/state").readsLocks).toBe(true);
    expect(stateBackend("https://api.pulumi.com").readsLocks).toBe(false);
    expect(stateBackend("s3://bucket").readsLocks).toBe(false);
  });

  it("never shows a PostgreSQL backend's password", () => {
    expect(stateBackend("postgres://ci:s3cret@db:5432/state?sslmode=require").shown).toBe(
      "postgres://ci:****@db:5432/state?sslmode=require",
    );
    expect(maskedUrl("postgres://db:5432/state")).toBe("postgres://db:5432/state");
  });

  // A PostgreSQL backend that cannot be reached is a failure to report, not "no lock".
  it("fails to read a PostgreSQL lock it cannot reach, naming no password", async () => {
    const backend = stateBackend("postgres://ci:s3cret@127.0.0.1:1/state?sslmode=disable");
    const err = await backend.lockTakenAt("dev", "infra").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(String(err)).not.toContain("s3cret");
  });
});

// Issue 34: pg is an optional peer dependency, installed only by those who recover a postgres://
// backend; without it, one line says what to install.
describe("the PostgreSQL driver", () => {
  it("is loaded when present", async () => {
    expect(typeof (await loadPg()).Client).toBe("function");
  });

  it("missing, is one line naming the package and the command that installs it", async () => {
    const missing = "pg-not-installed-anywhere";
    const err = await loadPg(() => import(/* @vite-ignore */ missing)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe(
      'recover needs the "pg" package to read the locks of a postgres:// state backend: install it beside pulumi-irv (npm install pg)',
    );
  });

  it("passes on any other failure to load it as it is", async () => {
    const broken = new Error("boom");
    await expect(loadPg(() => Promise.reject(broken))).rejects.toBe(broken);
  });
});
