// The release's archives carry nothing of the build that made them (issue 47: two release builds of
// one commit gave different irv-emulator archives): the same files staged at another time, by
// another umask, give the same bytes. The archives of a whole release built twice are compared in
// test/e2e/release/first-use-install.test.ts.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ARCHIVE_EPOCH, writeReproducibleArchive } from "../../../scripts/release-archive.ts";

describe("scripts/release-archive.ts", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), "irv-archive-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Stages a launcher and a bundle, written in the opposite order, with its own times and modes. */
  const stage = (name: string, at: Date, modes: { exe: number; file: number }) => {
    const s = path.join(dir, name);
    mkdirSync(s);
    writeFileSync(path.join(s, "irv-emulator.mjs"), "console.log('irv');\n");
    writeFileSync(path.join(s, "irv-emulator"), "#!/bin/sh\nexec node irv-emulator.mjs\n");
    chmodSync(path.join(s, "irv-emulator"), modes.exe);
    chmodSync(path.join(s, "irv-emulator.mjs"), modes.file);
    for (const f of ["irv-emulator", "irv-emulator.mjs"]) utimesSync(path.join(s, f), at, at);
    return s;
  };

  it("gives the same bytes for the same files staged at another time with another umask", () => {
    const a = path.join(dir, "a.tar.gz");
    const b = path.join(dir, "b.tar.gz");
    writeReproducibleArchive(stage("one", new Date("2026-01-01T10:00:00Z"), { exe: 0o755, file: 0o644 }), a);
    writeReproducibleArchive(stage("two", new Date("2026-11-28T14:00:07Z"), { exe: 0o775, file: 0o664 }), b);
    expect(readFileSync(a).equals(readFileSync(b))).toBe(true);
  });

  it("gives the same bytes in the pax format (the Python sdist's), whose headers carry no access or change time", () => {
    const a = path.join(dir, "a.tar.gz");
    const b = path.join(dir, "b.tar.gz");
    writeReproducibleArchive(
      stage("one", new Date("2026-01-01T10:00:00Z"), { exe: 0o755, file: 0o644 }),
      a,
      "pax",
    );
    writeReproducibleArchive(
      stage("two", new Date("2026-11-28T14:00:07Z"), { exe: 0o775, file: 0o664 }),
      b,
      "pax",
    );
    expect(readFileSync(a).equals(readFileSync(b))).toBe(true);
    const tar = gunzipSync(readFileSync(a));
    // ustar's magic at 257 (GNU's is "ustar  ").
    expect(tar.subarray(257, 263).toString("latin1")).toBe("ustar\0");
    expect(tar.toString("latin1")).not.toMatch(/ [ac]time=/);
  });

  it("lists the files in name order, executable or not, owned by 0:0 at the fixed time", () => {
    const file = path.join(dir, "a.tar.gz");
    writeReproducibleArchive(stage("one", new Date(), { exe: 0o700, file: 0o600 }), file);
    const listing = spawnSync("tar", ["--list", "--verbose", "--numeric-owner", "--utc", "--file", file], {
      encoding: "utf8",
    });
    const entries = listing.stdout
      .trim()
      .split("\n")
      .map((l) => l.split(/\s+/));
    const when = new Date(ARCHIVE_EPOCH * 1000).toISOString();
    expect(entries.map(([mode, owner, , day, time, name]) => [mode, owner, `${day} ${time}`, name])).toEqual([
      ["-rwxr-xr-x", "0/0", `${when.slice(0, 10)} ${when.slice(11, 16)}`, "irv-emulator"],
      ["-rw-r--r--", "0/0", `${when.slice(0, 10)} ${when.slice(11, 16)}`, "irv-emulator.mjs"],
    ]);
    // gzip's header: no time (bytes 4–7) and no file name (flag bit 3).
    const gz = readFileSync(file);
    expect(gz.readUInt32LE(4)).toBe(0);
    expect(gz.readUInt8(3) & 0x08).toBe(0);
  });
});
