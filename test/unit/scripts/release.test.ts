// The release script's own rules: release notes come from CHANGELOG.md's section of the version
// (a missing one stops the release), SHA256SUMS is in sha256sum's format, archives carry the names
// the engine asks for. The release itself is built and installed in test/e2e/release/.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { archiveName, DEFAULT_DOWNLOAD_URL, releaseNotes, sha256Sums } from "../../../scripts/release.ts";

const root = path.resolve(import.meta.dirname, "../../..");
const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };

describe("scripts/release.ts", () => {
  it("takes the release notes from CHANGELOG.md's section of package.json's version", () => {
    const notes = releaseNotes(readFileSync(path.join(root, "CHANGELOG.md"), "utf8"), version);
    expect(notes.startsWith(`## ${version}\n`)).toBe(true);
    expect(notes).not.toMatch(/\n## /);
    const changelog = "# Changelog\n\n## 0.2.0\n\nNew.\n\n## 0.1.0\n\nFirst.\n";
    expect(releaseNotes(changelog, "0.1.0")).toBe("## 0.1.0\n\nFirst.\n");
    expect(releaseNotes(changelog, "0.2.0")).toBe("## 0.2.0\n\nNew.\n");
  });

  it("refuses a version CHANGELOG.md has no section for, naming it", () => {
    expect(() => releaseNotes("# Changelog\n\n## 0.1.0\n", "0.1.1")).toThrow(
      'CHANGELOG.md has no "## 0.1.1" section',
    );
  });

  it("writes SHA256SUMS as sha256sum does, sorted", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "irv-sums-"));
    try {
      writeFileSync(path.join(dir, "b"), "b");
      writeFileSync(path.join(dir, "a"), "");
      expect(sha256Sums(dir, ["b", "a"])).toBe(
        [
          "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  a",
          "3e23e8160039594a33894f6564e1b1348bbd7a0088d42c4acb73eeaed59c009d  b",
          "",
        ].join("\n"),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("names archives as the engine downloads them, and defaults to this repository's GitHub releases", () => {
    expect(archiveName("1.2.3", { os: "windows", arch: "amd64" })).toBe(
      "pulumi-resource-irv-v1.2.3-windows-amd64.tar.gz",
    );
    const schema = JSON.parse(readFileSync(path.join(root, "provider", "plugin", "schema.json"), "utf8")) as {
      pluginDownloadURL: string;
    };
    expect(schema.pluginDownloadURL).toBe(DEFAULT_DOWNLOAD_URL);
  });
});
