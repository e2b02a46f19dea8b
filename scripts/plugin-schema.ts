#!/usr/bin/env node
// `npm run schema`: writes provider/plugin/schema.json, the native plugin's Pulumi package schema,
// from the kind table (built into dist/ by `npm run build`) and the TypeScript docs. The file is
// checked in; test/unit/provider/plugin/package-schema.test.ts fails when it is out of date. Then the
// API reference under docs/api (scripts/api-docs.ts) from the schema just written.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { API_DOCS_DIR, writeApiDocs } from "./api-docs.ts";
import { schemaDocs } from "./plugin-schema-docs.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Where the checked-in schema lives.
 *
 * @example
 * JSON.parse(readFileSync(SCHEMA_FILE, "utf8")).name; // "irv"
 */
export const SCHEMA_FILE = path.join(root, "provider", "plugin", "schema.json");

/**
 * The schema text: stable key order, two-space indent, final newline.
 *
 * @example
 * schemaText(packageSchema(version, schemaDocs()));
 */
export function schemaText(schema: unknown): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { packageSchema } = (await import(
    pathToFileURL(path.join(root, "dist", "provider", "plugin", "index.js")).href
  )) as typeof import("../provider/plugin/index.ts");
  const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
    version: string;
  };
  writeFileSync(SCHEMA_FILE, schemaText(packageSchema(version, schemaDocs())));
  // The repository's formatter owns the file's layout (the sync test compares the parsed JSON).
  spawnSync(process.execPath, [path.join(root, "scripts", "biome.mjs"), "format", "--write", SCHEMA_FILE], {
    stdio: "ignore",
  });
  console.log(`wrote ${path.relative(root, SCHEMA_FILE)}`);
  writeApiDocs(SCHEMA_FILE);
  console.log(`wrote ${path.relative(root, API_DOCS_DIR)}`);
}
