#!/usr/bin/env node
// `npm run schema` ends here: writes docs/api/, one Markdown page per resource and per function of
// the native plugin, from the package schema's descriptions (the Pulumi registry's layout: what it
// is, how to declare it in each language, inputs, outputs, import). The pages are build outputs:
// test/unit/scripts/api-docs.test.ts fails when they and the schema disagree.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Where the pages live.
 * @example
 * path.join(API_DOCS_DIR, "iam-group.md");
 */
export const API_DOCS_DIR = path.join(root, "docs", "api");

interface Property {
  type?: string;
  $ref?: string;
  items?: Property;
  additionalProperties?: Property;
  description?: string;
  secret?: boolean;
  replaceOnChanges?: boolean;
}
interface ObjectShape {
  description?: string;
  properties?: Record<string, Property>;
  required?: string[];
}
interface Resource extends ObjectShape {
  inputProperties?: Record<string, Property>;
  requiredInputs?: string[];
}
interface Schema {
  name: string;
  types: Record<string, ObjectShape>;
  resources: Record<string, Resource>;
  functions: Record<string, { description?: string; inputs?: ObjectShape; outputs?: ObjectShape }>;
}

/** `parentUid` → `parent_uid`: the Python SDK's names. */
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
/** `parentUid` → `ParentUid`: the Go SDK's names. */
const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);
/** `irv:iam:Group` → `{ module: "iam", name: "Group" }`. */
const splitToken = (token: string) => {
  const [, module = "index", name = ""] = token.split(":");
  return { module, name };
};
const typeName = (p: Property): string => {
  if (p.$ref !== undefined) return splitToken(p.$ref.replace("#/types/", "")).name;
  if (p.type === "array" && p.items) return `${typeName(p.items)}[]`;
  if (p.type === "object" && p.additionalProperties) return `map of ${typeName(p.additionalProperties)}`;
  return p.type ?? "any";
};
const oneLine = (text: string | undefined) => (text ?? "").replace(/\s*\n\s*/g, " ").replaceAll("|", "\\|");

function propertyTable(shape: ObjectShape, required: readonly string[], withFlags: boolean): string {
  const rows = Object.entries(shape.properties ?? {}).map(([name, p]) => {
    const flags = [
      required.includes(name) ? "required" : "",
      p.secret ? "secret" : "",
      withFlags && p.replaceOnChanges ? "replaces on change" : "",
    ].filter((f) => f !== "");
    return `| \`${name}\` | \`${snake(name)}\` | \`${pascal(name)}\` | ${typeName(p)} | ${flags.join(", ")} | ${oneLine(p.description)} |`;
  });
  if (rows.length === 0) return "None.\n";
  return [
    "| TypeScript / YAML | Python | Go | Type | | Description |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows,
    "",
  ].join("\n");
}

/** The object types a shape refers to, recursively, in the order met. */
function referencedTypes(schema: Schema, shapes: readonly ObjectShape[]): string[] {
  const seen: string[] = [];
  const visit = (p: Property | undefined) => {
    if (!p) return;
    if (p.$ref !== undefined) {
      const token = p.$ref.replace("#/types/", "");
      if (seen.includes(token)) return;
      seen.push(token);
      for (const q of Object.values(schema.types[token]?.properties ?? {})) visit(q);
    }
    visit(p.items);
    visit(p.additionalProperties);
  };
  for (const s of shapes) for (const p of Object.values(s.properties ?? {})) visit(p);
  return seen;
}

function typesSection(schema: Schema, shapes: readonly ObjectShape[]): string {
  // `pulumi.json#/Any` and other packages' types have no page here.
  const tokens = referencedTypes(schema, shapes).filter((t) => t in schema.types);
  if (tokens.length === 0) return "";
  return [
    "## Supporting types\n",
    ...tokens.map((token) => {
      const t = schema.types[token] ?? {};
      return `### ${splitToken(token).name}\n\n${t.description ? `${t.description}\n\n` : ""}${propertyTable(t, t.required ?? [], true)}`;
    }),
  ].join("\n");
}

function resourcePage(schema: Schema, token: string, r: Resource): string {
  const { module, name } = splitToken(token);
  const inputs: ObjectShape = { properties: r.inputProperties ?? {} };
  const outputs: ObjectShape = {
    properties: Object.fromEntries(
      Object.entries(r.properties ?? {}).filter(([k]) => !(k in inputs.properties!)),
    ),
  };
  const [about, importDoc] = (r.description ?? "").split("\n## Import\n");
  return [
    `# ${name} (\`${token}\`)\n`,
    `${(about ?? "").trim()}\n`,
    "## Declaring it\n",
    "| Language | |",
    "| --- | --- |",
    `| TypeScript (\`pulumi-irv\`, dynamic providers) | \`new irv.${module}.${name}(name, args)\` |`,
    `| Pulumi YAML | \`type: ${token}\` |`,
    `| Python (\`pulumi_irv\`) | \`irv.${module}.${name}(resource_name, **args)\` |`,
    `| Go (\`…/generated-sdks/go/irv/${module}\`) | \`${module}.New${name}(ctx, name, &${module}.${name}Args{…})\` |`,
    "",
    "## Inputs\n",
    propertyTable(inputs, r.requiredInputs ?? [], true),
    "## Outputs\n",
    "All inputs are also outputs, and:\n",
    propertyTable(outputs, r.required ?? [], false),
    typesSection(schema, [inputs, outputs]),
    ...(importDoc !== undefined ? [`## Import\n${importDoc.trimEnd()}\n`] : []),
  ].join("\n");
}

function functionPage(schema: Schema, token: string, f: Schema["functions"][string]): string {
  const { module, name } = splitToken(token);
  const bare = name.replace(/^get/, "");
  const goName = `${module}:${bare}` in schema.resources || `irv:${module}:${bare}` in schema.resources;
  const go = `${goName ? "Lookup" : "Get"}${bare}`;
  return [
    `# ${name} (\`${token}\`)\n`,
    `${(f.description ?? "").trim()}\n`,
    "## Calling it\n",
    "| Language | |",
    "| --- | --- |",
    `| TypeScript (\`pulumi-irv\`) | \`irv.${module}.${name}(args)\`, \`irv.${module}.${name}Output(args)\` |`,
    `| Pulumi YAML | \`fn::invoke: { function: ${token}, arguments: {…} }\` |`,
    `| Python (\`pulumi_irv\`) | \`irv.${module}.${snake(name)}(**args)\`, \`irv.${module}.${snake(name)}_output(**args)\` |`,
    `| Go (\`…/generated-sdks/go/irv/${module}\`) | \`${module}.${go}(ctx, &${module}.${go}Args{…})\`, \`${module}.${go}Output(…)\` |`,
    "",
    "## Arguments\n",
    propertyTable(f.inputs ?? {}, f.inputs?.required ?? [], false),
    "## Result\n",
    propertyTable(f.outputs ?? {}, f.outputs?.required ?? [], false),
    typesSection(schema, [f.inputs ?? {}, f.outputs ?? {}]),
  ].join("\n");
}

/**
 * Every page of docs/api, by file name, for a package schema: one per resource and function, and an
 * index.
 * @example
 * const pages = apiDocs(JSON.parse(readFileSync("provider/plugin/schema.json", "utf8")));
 * pages.get("iam-group.md"); // "# Group (`irv:iam:Group`)\n…"
 */
export function apiDocs(schema: Schema): Map<string, string> {
  const pages = new Map<string, string>();
  const index: string[] = [
    "# API reference: the `irv` package\n",
    "Generated from `provider/plugin/schema.json` by `npm run schema` (scripts/api-docs.ts); do not edit.",
    "The same names in every language: TypeScript and Pulumi YAML use the schema's camelCase, Python",
    "snake_case, Go PascalCase.\n",
    "| Resource | Token |",
    "| --- | --- |",
  ];
  const file = (token: string) => {
    const { module, name } = splitToken(token);
    return `${module}-${name.replace(/[A-Z]/g, (c, i: number) => (i === 0 ? c.toLowerCase() : `-${c.toLowerCase()}`))}.md`;
  };
  for (const [token, r] of Object.entries(schema.resources)) {
    pages.set(file(token), resourcePage(schema, token, r));
    index.push(`| [${splitToken(token).name}](${file(token)}) | \`${token}\` |`);
  }
  index.push("", "| Function | Token |", "| --- | --- |");
  for (const [token, f] of Object.entries(schema.functions)) {
    pages.set(file(token), functionPage(schema, token, f));
    index.push(`| [${splitToken(token).name}](${file(token)}) | \`${token}\` |`);
  }
  pages.set("README.md", `${index.join("\n")}\n`);
  return pages;
}

/**
 * Rewrites docs/api from a schema file, removing pages of what the schema no longer has.
 * @example
 * writeApiDocs("provider/plugin/schema.json");
 */
export function writeApiDocs(schemaFile: string, dir = API_DOCS_DIR): void {
  const pages = apiDocs(JSON.parse(readFileSync(schemaFile, "utf8")) as Schema);
  mkdirSync(dir, { recursive: true });
  for (const old of readdirSync(dir)) if (!pages.has(old)) rmSync(path.join(dir, old));
  for (const [name, text] of pages) writeFileSync(path.join(dir, name), text);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  writeApiDocs(path.join(root, "provider", "plugin", "schema.json"));
  console.log(`wrote ${path.relative(process.cwd(), API_DOCS_DIR)}`);
}
