#!/usr/bin/env node
// `npm run schema`: writes provider/plugin/schema.json, the native plugin's Pulumi package schema,
// from the kind table (built into dist/ by `npm run build`) and the TypeScript docs. The file is
// checked in; test/unit/provider/plugin/package-schema.test.ts fails when it is out of date.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
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
  console.log(`wrote ${path.relative(root, SCHEMA_FILE)}`);
}
