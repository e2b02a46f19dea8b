// The release's .tar.gz archives (the plugin's and the emulator's), made so that two builds of one
// commit give the same bytes: a user checks a rebuild against SHA256SUMS (docs/releasing.md). A
// plain `tar -czf` records each file's build time, the builder's user and group and umask, and gzip
// its own time; none of that is part of the release. Here every entry has the same time
// (ARCHIVE_EPOCH), owner and group 0 with no names, a mode of 0755 or 0644 (executable or not), and
// entries come in name order; gzip is Node's zlib (the Node version is pinned by the repository, as
// it is for the executables inside), whose header carries no time and no file name. The Python SDK's
// sdist is re-written the same way, in the pax format its specification asks for.
import { spawnSync } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

/**
 * The time every archive entry carries: 1980-01-01T00:00:00Z, also the pytest helper wheel's
 * SOURCE_DATE_EPOCH (a zip cannot hold an earlier time).
 * @example
 * new Date(ARCHIVE_EPOCH * 1000).toISOString(); // "1980-01-01T00:00:00.000Z"
 */
export const ARCHIVE_EPOCH = 315532800;

/**
 * Writes every file of `stage` (its top level, in name order) into the gzip-compressed tar `file`,
 * with nothing of the build's time, user or umask in it. Needs GNU tar (the release builds on Linux).
 * `format` "pax" is for a Python sdist (its specification asks for POSIX.1-2001 archives).
 * @example
 * writeReproducibleArchive("/tmp/stage", "/tmp/out/irv-emulator-v0.1.0-linux-amd64.tar.gz");
 */
export function writeReproducibleArchive(stage: string, file: string, format: "gnu" | "pax" = "gnu"): void {
  const tar = spawnSync(
    "tar",
    [
      "--create",
      `--format=${format}`,
      // pax's extended headers would otherwise carry each file's access and change times (and, in
      // older GNU tars, tar's process id in their names).
      ...(format === "pax" ? ["--pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime"] : []),
      "--sort=name",
      `--mtime=@${ARCHIVE_EPOCH}`,
      "--owner=0",
      "--group=0",
      "--numeric-owner",
      // X: executable for all where any execute bit is set (the executables and launchers), else 0644.
      "--mode=u=rwX,go=rX",
      "--file=-",
      `--directory=${stage}`,
      "--",
      ...readdirSync(stage).sort(),
    ],
    { maxBuffer: 1024 * 1024 * 1024 },
  );
  if (tar.status !== 0)
    throw new Error(
      `pulumi-irv: tar failed making ${file}: ${tar.error?.message ?? tar.stderr.toString().trim()}`,
    );
  writeFileSync(file, gzipSync(tar.stdout));
}
