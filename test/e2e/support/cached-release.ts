// A release (`npm run release`, default download URL) built once per source tree and kept in the
// tool cache: the e2e files that test the release's artifacts share one build (minutes on two cores)
// instead of each making its own. The key hashes every input of the release: the compiled dist/
// folders, the schema, the generated SDKs, the hand-written test helpers, the release scripts and the
// versions; an older entry is removed when a new one is made.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { cacheRoot, withLock } from "../../../scripts/pulumi-cli.ts";
import type { Release } from "../../../scripts/release.ts";

const root = path.resolve(import.meta.dirname, "../../..");

/** What the release's build hashes: folders walked, files read. */
const INPUTS = [
  "dist/provider",
  "dist/sdk",
  "dist/review",
  "emulator/dist",
  "policy/dist",
  "provider/plugin/schema.json",
  "generated-sdks",
  "testing",
  "scripts",
  "package.json",
  "package-lock.json",
  "emulator/package.json",
  "policy/package.json",
  "CHANGELOG.md",
];

function hashInto(hash: ReturnType<typeof createHash>, rel: string): void {
  const full = path.join(root, rel);
  if (!existsSync(full)) return;
  const stat = lstatSync(full);
  if (stat.isDirectory()) {
    for (const name of readdirSync(full).sort()) {
      if (name === "node_modules" || name === "__pycache__" || name.startsWith(".")) continue;
      hashInto(hash, `${rel}/${name}`);
    }
  } else if (stat.isFile()) hash.update(`${rel}\0`).update(readFileSync(full)).update("\0");
}

/**
 * The release of this source tree: built into `<cache>/release-<key>/` on first use (under a lock,
 * so that parallel files wait for one build), then reused. Needs `npm run build` done (the e2e setup does it).
 *
 * @example
 * const release = await cachedRelease();
 * const wheel = path.join(release.out, release.python.wheel);
 */
export async function cachedRelease(log: (line: string) => void = (l) => console.error(l)): Promise<Release> {
  const hash = createHash("sha256");
  for (const input of INPUTS) hashInto(hash, input);
  const key = hash.digest("hex").slice(0, 12);
  const base = cacheRoot();
  const entry = path.join(base, `release-${key}`);
  const manifest = path.join(entry, ".release.json");
  if (!existsSync(manifest))
    await withLock(`${entry}.lock`, log, async () => {
      if (existsSync(manifest)) return;
      mkdirSync(base, { recursive: true });
      const work = `${entry}.building`;
      rmSync(work, { recursive: true, force: true });
      log(`pulumi-irv: building the release once for the e2e tests → ${entry}`);
      const script = [
        `import { buildRelease } from ${JSON.stringify(path.join(root, "scripts", "release.ts"))};`,
        `import { writeFileSync } from "node:fs";`,
        `const r = await buildRelease({ out: ${JSON.stringify(work)}, log: () => {} });`,
        `writeFileSync(${JSON.stringify(path.join(work, ".release.json"))}, JSON.stringify(r));`,
      ].join("\n");
      await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], {
        cwd: root,
        maxBuffer: 64 * 1024 * 1024,
      });
      for (const old of readdirSync(base))
        if (/^release-[0-9a-f]{12}$/.test(old) && old !== path.basename(entry))
          rmSync(path.join(base, old), { recursive: true, force: true });
      rmSync(entry, { recursive: true, force: true });
      renameSync(work, entry);
    });
  const release = JSON.parse(readFileSync(manifest, "utf8")) as Release;
  return { ...release, out: entry };
}
