// The language SDKs under sdks/ are build outputs of the schema (`npm run build:sdks`): regenerating
// them must reproduce the checked-in files exactly, and a Node.js SDK generated from the same schema
// must type-check, which proves the schema complete for a typed language.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSdk, listFiles, SCHEMA_PATH, SDK_DIRS } from "../../../scripts/build-sdks.js";
import { ensureGoModuleCache, offlineGoEnv } from "../../../scripts/go-sdk.js";

const root = path.resolve(import.meta.dirname, "../../..");
let work: string;

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), "irv-sdks-"));
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe("the generated SDKs", () => {
  for (const language of ["python", "go"] as const) {
    it(`generated-sdks/${language} is exactly what the generator makes of schema.json (run \`npm run build:sdks\`)`, async () => {
      const fresh = path.join(work, language);
      // The Go module's go.mod and go.sum are build outputs too (`go mod tidy`, from the module cache).
      if (language === "go") await ensureGoModuleCache();
      await generateSdk(language, SCHEMA_PATH, fresh, language === "go" ? { env: offlineGoEnv() } : {});
      const committed = SDK_DIRS[language];
      // Files of ours beside the generated ones (tests) are not the generator's to make.
      const generated = listFiles(fresh);
      if (language === "go") expect(generated).toEqual(expect.arrayContaining(["irv/go.mod", "irv/go.sum"]));
      expect(listFiles(committed).filter((f) => generated.includes(f))).toEqual(generated);
      for (const file of generated)
        expect(readFileSync(path.join(committed, file), "utf8"), `generated-sdks/${language}/${file}`).toBe(
          readFileSync(path.join(fresh, file), "utf8"),
        );
    });
  }

  it("a Node.js SDK from the same schema type-checks under strict TypeScript", async () => {
    const dir = path.join(work, "nodejs");
    await generateSdk("nodejs", SCHEMA_PATH, dir);
    // The generated package imports @pulumi/pulumi: resolve it from this repository's install.
    symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"), "dir");
    const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
    const r = spawnSync(process.execPath, [tsc, "-p", "tsconfig.json", "--noEmit", "--strict"], {
      cwd: dir,
      encoding: "utf8",
    });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(listFiles(dir)).toEqual(
      expect.arrayContaining(["iam/group.ts", "registry/getRepos.ts", "provider.ts"]),
    );
  });
});
