import { execFileSync } from "node:child_process";
import path from "node:path";

/** One tarball made by `npm pack`, with what `npm pack --json` says about it. */
export interface PackedPackage {
  name: string;
  version: string;
  /** Absolute path of the `.tgz`. */
  tarball: string;
  /** Size of the tarball in bytes. */
  size: number;
  unpackedSize: number;
  /** Paths inside the package, e.g. `dist/provider/index.js`. */
  files: string[];
}

interface NpmPackJson {
  name: string;
  version: string;
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string }[];
}

/**
 * `npm pack`s the root package and the two workspace packages into `destination`: the very tarballs
 * a publish would upload (workspaces and `file:` links would hide missing `files` entries).
 *
 * @example
 * const packs = packPackages(repoRoot, tmp); // pulumi-irv, pulumi-irv-emulator, pulumi-irv-policy
 */
export function packPackages(repoRoot: string, destination: string): Map<string, PackedPackage> {
  const packed = new Map<string, PackedPackage>();
  for (const scope of [[], ["--workspace", "emulator", "--workspace", "policy"]]) {
    const out = execFileSync(
      "npm",
      ["pack", "--json", "--ignore-scripts", "--pack-destination", destination, ...scope],
      { cwd: repoRoot, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
    );
    for (const p of JSON.parse(out) as NpmPackJson[]) {
      packed.set(p.name, {
        name: p.name,
        version: p.version,
        tarball: path.join(destination, p.filename),
        size: p.size,
        unpackedSize: p.unpackedSize,
        files: p.files.map((f) => f.path),
      });
    }
  }
  return packed;
}
