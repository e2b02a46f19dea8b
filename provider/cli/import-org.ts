import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { IrvClient } from "../../sdk/index.js";
import { ApiError, uidProblem } from "../../sdk/index.js";
import { clientFor, resolveSettings } from "../config/index.js";
import { CliError } from "./cli-error.js";
import { listCustomRoles } from "./custom-roles.js";
import type { OrgObject } from "./org-kinds.js";
import { ORG_KINDS } from "./org-kinds.js";
import { renderImportFile } from "./render-import-file.js";
import { renderProgram } from "./render-program.js";
import { renderYamlProgram } from "./render-yaml-program.js";

/**
 * Options of {@link importOrg}.
 *
 * @example
 * await importOrg({ root: orgUid, out: "infra" });
 */
export interface ImportOrgOptions {
  /** Uid of the group whose subtree is adopted. */
  root: string;
  /** Where to write the project. Default the current directory. */
  out?: string | undefined;
  /** Kinds to include (the `kind` of each {@link ORG_KINDS} entry: `groups`, `roles`, …); default all. */
  kinds?: readonly string[] | undefined;
  /**
   * `typescript` (default): a TypeScript project on the dynamic providers; `pulumi-import`: Pulumi's
   * bulk import file for the native plugin (`pulumi import --file import.json` writes the program in
   * the project's language, YAML included).
   */
  format?: "typescript" | "pulumi-import" | undefined;
  /**
   * The language of the program (format `typescript`, the default): `typescript` on the dynamic
   * providers, or `yaml`, a Pulumi YAML program on the native plugin (`irv:iam:*` tokens).
   */
  language?: "typescript" | "yaml" | undefined;
  /** Project name. Default `irv-org`. */
  project?: string | undefined;
  /** The client; default one from the `IRV_*` environment, as the provider resolves it. */
  client?: IrvClient | undefined;
  /** Progress lines (stderr by default). */
  progress?: ((line: string) => void) | undefined;
}

/**
 * What {@link importOrg} wrote.
 *
 * @example
 * const { files, resources } = await importOrg({ root });
 */
export interface ImportOrgReport {
  /** Paths of the files written. */
  files: string[];
  /** Resources per class name. */
  resources: Record<string, number>;
}

/**
 * Reads the subtree of `root` (every kind in the table, all pages, pages fetched concurrently) and
 * writes a Pulumi project (TypeScript, or Pulumi YAML with `language: "yaml"`) that adopts it with
 * the `import` resource option.
 *
 * @example
 * await importOrg({ root: "0123…", out: "infra", progress: console.error });
 */
export async function importOrg(options: ImportOrgOptions): Promise<ImportOrgReport> {
  const progress = options.progress ?? ((line: string) => process.stderr.write(`${line}\n`));
  const problem = uidProblem(options.root, "hierarchical");
  if (problem !== undefined) throw new CliError(`--root ${problem}`, 2);
  const known = ORG_KINDS.map((k) => k.kind);
  const kinds = options.kinds ?? known;
  const unknown = kinds.filter((k) => !known.includes(k));
  if (unknown.length > 0)
    throw new CliError(`--kinds: unknown kind ${unknown.join(", ")}; known: ${known.join(", ")}`, 2);
  const project = options.project ?? "irv-org";
  if (!/^[a-z0-9][a-z0-9._-]*$/.test(project))
    throw new CliError("--project must be lower-case letters, digits, '.', '_' or '-'", 2);

  const client = options.client ?? clientFor(resolveSettings(() => undefined));
  await readRoot(client, options.root);
  // Every kind at once, each reading its pages concurrently: one round trip of latency per kind saved.
  const lists = await Promise.all(
    ORG_KINDS.filter((k) => kinds.includes(k.kind)).map(async (kind) => {
      progress(`reading ${kind.kind} below ${options.root}…`);
      const found = (await kind.list(client, options.root)).sort((a, b) =>
        a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0,
      );
      progress(`  ${found.length} ${kind.kind}`);
      return found;
    }),
  );
  const objects: OrgObject[] = lists.flat();
  // The API does not say where a role is defined: custom ones are found group by group.
  const parents = new Map(
    objects.filter((o) => o.className === "Role").map((o) => [o.uid, o.parentUid] as const),
  );
  if (!kinds.includes("roles"))
    for (const r of await listCustomRoles(client, options.root)) parents.set(r.uid, r.parentUid);
  const roles = (await client.roles.collectParallel({}, { concurrency: 4 })).map((r) => ({
    ...r,
    parentUid: parents.get(r.uid),
  }));
  if (options.format === "pulumi-import") {
    const { files, skipped } = renderImportFile(objects);
    for (const { object, reason } of skipped)
      progress(`not in import.json: ${object.className} ${object.uid}: ${reason}`);
    const left = new Set(skipped.map((s) => s.object));
    const adopted = objects.filter((o) => !left.has(o));
    return writeFiles(options.out, files, adopted.length, progress, adopted);
  }
  const render = options.language === "yaml" ? renderYamlProgram : renderProgram;
  const files = render({
    rootUid: options.root,
    objects,
    roles,
    project,
    kinds,
    versions: versions(),
  });
  const skipped = objects.filter((o) => o.unsupported !== undefined);
  if (skipped.length > 0)
    progress(
      `${skipped.length} objects not generated (${[...new Set(skipped.map((o) => o.className))].join(", ")}): listed in README.md`,
    );
  return writeFiles(options.out, files, objects.length - skipped.length, progress, objects);
}

function writeFiles(
  outDir: string | undefined,
  files: Record<string, string>,
  count: number,
  progress: (line: string) => void,
  objects: readonly OrgObject[] = [],
): ImportOrgReport {
  const out = path.resolve(outDir ?? ".");
  mkdirSync(out, { recursive: true });
  const written = Object.entries(files).map(([name, content]) => {
    const file = path.join(out, name);
    writeFileSync(file, content);
    return file;
  });
  const resources: Record<string, number> = {};
  for (const o of objects)
    if (o.unsupported === undefined) resources[o.className] = (resources[o.className] ?? 0) + 1;
  progress(`wrote ${written.length} files to ${out}: ${count} resources`);
  return { files: written, resources };
}

async function readRoot(client: IrvClient, root: string): Promise<void> {
  try {
    await client.groups.get(root);
  } catch (err) {
    if (err instanceof ApiError && err.isNotFound())
      throw new CliError(`the root group ${root} does not exist`);
    if (
      err instanceof ApiError &&
      (err.codeName === "PERMISSION_DENIED" || err.codeName === "UNAUTHENTICATED")
    )
      throw new CliError(`the caller may not read the root group ${root}: ${err.message}`);
    throw err;
  }
}

function versions(): { pulumiIrv: string; pulumi: string } {
  const require = createRequire(import.meta.url);
  const version = (pkg: string) => (require(pkg) as { version: string }).version;
  return { pulumiIrv: version("pulumi-irv/package.json"), pulumi: version("@pulumi/pulumi/package.json") };
}
