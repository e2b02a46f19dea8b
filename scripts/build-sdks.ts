#!/usr/bin/env node
// `npm run build:sdks`: writes the language SDKs of the native plugin under sdks/ from the checked-in
// package schema (provider/plugin/schema.json) with Pulumi's own code generators.
//
//   node scripts/build-sdks.ts                 # generated-sdks/python and generated-sdks/go
//   node scripts/build-sdks.ts nodejs --out /tmp/x   # one language into another directory
//
// `pulumi package gen-sdk` hands generation to each language's host, and the Node.js, Python and Go
// hosts are not obtainable here; the generators themselves live in pulumi/pulumi's pkg/v3
// (codegen/{python,go,nodejs}). scripts/sdkgen/main.go calls them; it is built once per machine
// with the Go toolchain, like the CLI, and cached outside the repository (docs/toolchain.md).
// Java's generator (pulumi-java) is not served by the Go module proxy here, so there is no Java SDK.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { writeGoModule } from "./go-sdk.ts";
import type { EnsurePulumiCliOptions } from "./pulumi-cli.ts";
import { cacheRoot, goBuild, PULUMI_PKG_GO_MOD, PULUMI_VERSION, withLock } from "./pulumi-cli.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const GENERATOR_SOURCE = fileURLToPath(new URL("./sdkgen/main.go", import.meta.url));
const GENERATOR = "pulumi-irv-sdkgen";

/** The languages Pulumi's generators write an SDK for here. */
export type SdkLanguage = "python" | "go" | "nodejs";

/**
 * The SDKs kept in the repository, by language: where each lives. The Node.js one is generated only
 * as a check that the schema is complete (TypeScript users have the `pulumi-irv` package itself).
 * @example
 * SDK_DIRS.python; // "<repo>/sdks/python"
 */
export const SDK_DIRS: Readonly<Record<"python" | "go", string>> = {
  python: path.join(root, "generated-sdks", "python"),
  go: path.join(root, "generated-sdks", "go"),
};

/** The schema the SDKs are generated from (`npm run schema` writes it). */
export const SCHEMA_PATH = path.join(root, "provider", "plugin", "schema.json");

/**
 * Finds or builds the SDK generator (scripts/sdkgen/main.go against pulumi/pulumi pkg/v3 at the CLI's
 * version) and returns its path. The cache entry is keyed by the source's hash, so an edited generator
 * is rebuilt and several clones share one build.
 * @example
 * const exe = await ensureSdkGenerator();
 * spawnSync(exe, ["python", SCHEMA_PATH, "/tmp/py"]);
 */
export async function ensureSdkGenerator(options: EnsurePulumiCliOptions = {}): Promise<string> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const source = readFileSync(GENERATOR_SOURCE, "utf8");
  const key = createHash("sha256").update(`${PULUMI_VERSION}\0${source}`).digest("hex").slice(0, 12);
  const entry = path.join(cacheRoot(env), `${GENERATOR}-${key}`);
  const exe = path.join(entry, "bin", GENERATOR);
  if (!existsSync(exe))
    await withLock(`${entry}.lock`, log, async () => {
      if (existsSync(exe)) return;
      await goBuild(
        entry,
        {
          what: `the SDK generator (pulumi/pulumi pkg/v3 v${PULUMI_VERSION} codegen)`,
          goMod: PULUMI_PKG_GO_MOD,
          sources: { "main.go": source },
          pkg: ".",
          ldflags: "",
          binary: GENERATOR,
          check: (built) => (existsSync(built) ? undefined : `pulumi-irv: go build made no ${built}`),
        },
        env,
        log,
      );
    });
  return exe;
}

/**
 * Generates one language's SDK from `schemaPath` into `outDir`, replacing what was there (written
 * beside it first, then renamed, so a failed run leaves the old SDK whole).
 * @example
 * await generateSdk("go", SCHEMA_PATH, SDK_DIRS.go);
 */
export async function generateSdk(
  language: SdkLanguage,
  schemaPath: string,
  outDir: string,
  options: EnsurePulumiCliOptions = {},
): Promise<void> {
  const exe = await ensureSdkGenerator(options);
  const parent = path.dirname(outDir);
  mkdirSync(parent, { recursive: true });
  const work = mkdtempSync(path.join(parent, `.${path.basename(outDir)}-`));
  const r = spawnSync(exe, [language, schemaPath, work], { encoding: "utf8" });
  if (r.status !== 0) {
    rmSync(work, { recursive: true, force: true });
    throw new Error(`pulumi-irv: generating the ${language} SDK failed: ${(r.stderr || r.stdout).trim()}`);
  }
  try {
    // The generator writes no go.mod: the module file and its go.sum are ours (scripts/go-sdk.ts).
    if (language === "go") {
      // Hand-written packages of the module (testing/go: the `irvtest` test helper) go in as they are.
      cpSync(path.join(root, "testing", "go"), path.join(work, "irv"), { recursive: true });
      writeGoModule(path.join(work, "irv"), options.env);
    }
  } catch (err) {
    rmSync(work, { recursive: true, force: true });
    throw err;
  }
  rmSync(outDir, { recursive: true, force: true });
  renameSync(work, outDir);
}

/**
 * Every file under `dir`, relative to it with `/`, sorted: what the sync test compares.
 * @example
 * listFiles(SDK_DIRS.go); // ["irv/doc.go", "irv/iam/group.go", …]
 */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const name of readdirSync(path.join(dir, rel))) {
      const child = rel === "" ? name : `${rel}/${name}`;
      if (lstatSync(path.join(dir, child)).isDirectory()) walk(child);
      else out.push(child);
    }
  };
  walk("");
  return out.sort();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const args = process.argv.slice(2);
  const outAt = args.indexOf("--out");
  const out = outAt >= 0 ? args[outAt + 1] : undefined;
  const languages = args.filter(
    (a, i) => !a.startsWith("--") && (outAt < 0 || i !== outAt + 1),
  ) as SdkLanguage[];
  const selected: SdkLanguage[] = languages.length > 0 ? languages : ["python", "go"];
  for (const language of selected) {
    if (!["python", "go", "nodejs"].includes(language)) {
      console.error(`build-sdks: unknown language ${JSON.stringify(language)} (python, go or nodejs)`);
      process.exit(2);
    }
    const dir =
      out !== undefined
        ? path.resolve(out, selected.length > 1 ? language : "")
        : language === "nodejs"
          ? undefined
          : SDK_DIRS[language];
    if (dir === undefined) {
      console.error("build-sdks: the Node.js SDK is a check only: give --out DIR");
      process.exit(2);
    }
    await generateSdk(language, SCHEMA_PATH, dir);
    console.log(`wrote ${path.relative(process.cwd(), dir) || "."} (${language})`);
  }
}
