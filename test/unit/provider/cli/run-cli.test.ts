import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runCli } from "../../../../provider/cli/index.js";
import { ORG_KINDS } from "../../../../provider/cli/org-kinds.js";

const run = async (argv: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err: err.join("\n") };
};

describe("pulumi-irv", () => {
  it.each([
    ["recover", ["--stack", "--cwd", "--apply", "--since", "--help"]],
    ["import-org", ["--root", "--out", "--kinds", "--project", "--format", "--language", "--help"]],
  ])("%s --help documents every flag", async (command, flags) => {
    const r = await run([command, "--help"]);
    expect(r.code).toBe(0);
    for (const flag of flags) expect(r.out).toMatch(new RegExp(`^\\s+(-h, )?${flag}\\b`, "m"));
  });

  it("import-org --help names every kind --kinds takes", async () => {
    const r = await run(["import-org", "--help"]);
    for (const kind of ORG_KINDS) expect(r.out).toContain(kind.kind);
    expect(r.out).toContain("groupInvites");
  });

  it("names an unknown flag and exits 2", async () => {
    const r = await run(["recover", "--aply"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("--aply");
  });

  it("names an unknown command and lists the commands", async () => {
    const r = await run(["recovr"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/unknown command "recovr"[\s\S]*recover[\s\S]*import-org/);
  });

  it("import-org refuses a malformed root before any call, naming the rule", async () => {
    const r = await run(["import-org", "--root", "../groups"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--root must be 40 lowercase hex digits/);
    expect(r.err).not.toContain("../groups");
  });

  it("import-org refuses an unknown kind, listing the known ones", async () => {
    const r = await run(["import-org", "--root", "0".repeat(40), "--kinds", "groups,advisories"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      "unknown kind advisories; known: groups, roles, identities, identityProviders, accountAssociations, roleBindings, pullTokens, groupInvites, externalGroupRoleMappings, repos, overlays, tags, overlayBindings, subscriptions",
    );
  });

  it("import-org refuses a --language it cannot write, naming the ones it can", async () => {
    const r = await run(["import-org", "--root", "0".repeat(40), "--language", "python"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--language must be typescript or yaml, got "python"');
  });

  it("recover refuses a --since that is not a time", async () => {
    const r = await run(["recover", "--since", "yesterday"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--since must be an RFC 3339 time, got "yesterday"');
  });
});

describe("pulumi-irv --version", () => {
  it.each([["--version"], ["-v"], ["version"]])(
    "%s prints the package's version and exits 0",
    async (flag) => {
      const { version } = JSON.parse(
        readFileSync(new URL("../../../../package.json", import.meta.url), "utf8"),
      ) as {
        version: string;
      };
      expect(await run([flag])).toEqual({ code: 0, out: version, err: "" });
    },
  );
});
