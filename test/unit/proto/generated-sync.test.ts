// The emulator's gRPC code is generated from proto/ by `npm run proto` (the v2 files from the v2beta1
// ones by scripts/proto-v2.ts, then buf + protoc-gen-es) and checked in: generating it again into a
// temporary folder must give the same files, byte for byte.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BETA_ONLY, deriveV2, V2_DOMAINS } from "../../../scripts/proto-v2.ts";

const root = path.resolve(import.meta.dirname, "../../..");
const checkedIn = path.join(root, "emulator/grpc/gen");

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

describe("the v2 (GA) definitions", () => {
  it("are the v2beta1 files with the package renamed, as scripts/proto-v2.ts writes them", () => {
    const fresh = deriveV2();
    const checkedIn = V2_DOMAINS.flatMap((d) =>
      filesUnder(path.join(root, "proto/chainguard/platform", d, "v2")).map(
        (f) => `chainguard/platform/${d}/v2/${f}`,
      ),
    ).sort();
    expect(checkedIn, "the files of proto/chainguard/platform/*/v2 (run `npm run proto`)").toEqual(
      [...fresh.keys()].sort(),
    );
    for (const [f, text] of fresh) {
      expect(readFileSync(path.join(root, "proto", f), "utf8"), `${f} (run \`npm run proto\`)`).toBe(text);
    }
  });

  it("leave out overlays and overlay bindings, which have no v2", () => {
    expect([...BETA_ONLY].map((f) => f.replace("v2beta1", "v2")).filter((f) => deriveV2().has(f))).toEqual(
      [],
    );
    expect(deriveV2().has("chainguard/platform/registry/v2/repos.proto")).toBe(true);
  });
});

describe("generated gRPC code", () => {
  const out = mkdtempSync(path.join(tmpdir(), "irv-proto-gen-"));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("is what `npm run proto` generates from proto/ now", () => {
    const template = JSON.stringify({
      version: "v2",
      plugins: [
        {
          local: path.join(root, "node_modules/.bin/protoc-gen-es"),
          out,
          opt: ["target=ts", "import_extension=js"],
        },
      ],
    });
    execFileSync(path.join(root, "node_modules/.bin/buf"), ["generate", "--template", template], {
      cwd: path.join(root, "proto"),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const fresh = filesUnder(out);
    expect(filesUnder(checkedIn), "the files of emulator/grpc/gen (run `npm run proto`)").toEqual(fresh);
    for (const f of fresh) {
      expect(readFileSync(path.join(checkedIn, f), "utf8"), `${f} (run \`npm run proto\`)`).toBe(
        readFileSync(path.join(out, f), "utf8"),
      );
    }
    // buf compiles every file (both versions since issue 45) and runs the plugin: seconds when idle,
    // about a minute on a machine shared by several test runs (measured at load 30 on 2 cores).
  }, 180_000);
});
