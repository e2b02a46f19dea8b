// The TSDoc of pulumi-irv's TypeScript front end, read with the TypeScript compiler for the native
// plugin's schema (descriptions, and the argument and result shapes of the lookups, which exist only
// as TypeScript types). Build-time only: the plugin never loads TypeScript.
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import type { SchemaDocs, SchemaObject, SchemaProperty } from "../provider/plugin/index.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Reads the docs of every class and lookup the package's namespaces export.
 *
 * @example
 * const docs = schemaDocs();
 * docs.resources.Group.properties.parentUid; // "Uid of the parent group; …"
 */
export function schemaDocs(entry = path.join(root, "provider", "index.ts")): SchemaDocs {
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    strict: true,
    exactOptionalPropertyTypes: true,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error(`cannot read ${entry}`);
  const docs: SchemaDocs = { resources: {}, functions: {} };
  for (const ns of checker.getExportsOfModule(moduleSymbol)) {
    const nsType = checker.getTypeOfSymbol(ns);
    if (nsType.getProperties().length === 0) continue;
    for (const member of checker.getExportsOfModule(checker.getAliasedSymbol(ns))) {
      const symbol = member.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(member) : member;
      if (symbol.flags & ts.SymbolFlags.Class) {
        const properties: Record<string, string> = {};
        const args = checker
          .getExportsOfModule(checker.getAliasedSymbol(ns))
          .find((s) => s.name === `${member.name}Args`);
        const argsType = args && checker.getDeclaredTypeOfSymbol(checker.getAliasedSymbol(args));
        for (const p of argsType?.getProperties() ?? []) addDoc(properties, p, checker);
        const instance = checker.getDeclaredTypeOfSymbol(symbol);
        for (const p of instance.getProperties()) if (!(p.name in properties)) addDoc(properties, p, checker);
        docs.resources[member.name] = { ...described(symbol, checker), properties };
      } else if (
        symbol.flags & ts.SymbolFlags.Function &&
        !member.name.endsWith("Output") &&
        // A function the plugin serves has its `…Output` twin: the lookups and the identity presets.
        checker
          .getExportsOfModule(checker.getAliasedSymbol(ns))
          .some((s) => s.name === `${member.name}Output`)
      ) {
        const signature = checker.getTypeOfSymbol(symbol).getCallSignatures()[0];
        if (!signature) continue;
        const param = signature.getParameters()[0];
        const argType = param && checker.getNonNullableType(checker.getTypeOfSymbol(param));
        const result = checker.getAwaitedType(signature.getReturnType()) ?? signature.getReturnType();
        const sink: TypeSink = {
          types: docs.types ?? {},
          prefix: `irv:${ns.name}:${member.name.charAt(0).toUpperCase()}${member.name.slice(1)}`,
        };
        docs.types = sink.types;
        docs.functions[`irv.${ns.name}.${member.name}`] = {
          ...described(symbol, checker),
          inputs: objectOf(argType, checker),
          outputs: objectOf(result, checker, sink),
        };
      }
    }
  }
  return docs;
}

function described(symbol: ts.Symbol, checker: ts.TypeChecker): { description?: string } {
  // `{@link getRole}` means something to TypeScript readers only: every language sees the plain name.
  const text = ts
    .displayPartsToString(symbol.getDocumentationComment(checker))
    .replace(/\{@link\s+([^}|\s]+)\s*(?:\|[^}]*)?\}/g, "`$1`")
    .trim();
  return text ? { description: text } : {};
}

function addDoc(into: Record<string, string>, p: ts.Symbol, checker: ts.TypeChecker): void {
  const { description } = described(p, checker);
  if (description) into[p.name] = description;
}

/** Where the nested object types of the lookups' results go, and the prefix of their names. */
interface TypeSink {
  types: NonNullable<SchemaDocs["types"]>;
  /** `irv:iam:GetRoles`: a nested type is this plus its property path. */
  prefix: string;
}

function objectOf(
  type: ts.Type | undefined,
  checker: ts.TypeChecker,
  sink?: TypeSink,
  path: readonly string[] = [],
): SchemaObject {
  const properties: Record<string, SchemaProperty> = {};
  const required: string[] = [];
  for (const p of type?.getProperties() ?? []) {
    const declared = checker.getTypeOfSymbol(p);
    properties[p.name] = {
      ...typeOf(checker.getNonNullableType(declared), checker, sink, [...path, p.name]),
      ...described(p, checker),
    };
    if (!(p.flags & ts.SymbolFlags.Optional)) required.push(p.name);
  }
  return { properties, ...(required.length ? { required } : {}) };
}

const ANY = { $ref: "pulumi.json#/Any" } as const;

// Scalars keep their type; an object of the API (a role, a repo) becomes a named type of the lookup,
// `irv:iam:GetRolesRoles`, so every language gets typed fields and their docs. Without a sink (the
// arguments) anything else is Pulumi's Any.
function typeOf(
  t: ts.Type,
  checker: ts.TypeChecker,
  sink?: TypeSink,
  path: readonly string[] = [],
): SchemaProperty {
  if (t.flags & ts.TypeFlags.StringLike) return { type: "string" };
  if (t.flags & ts.TypeFlags.NumberLike) return { type: "number" };
  if (t.flags & ts.TypeFlags.BooleanLike) return { type: "boolean" };
  if (t.isUnion()) {
    // A union of literals of one scalar type (`"TYPE_CVSS_V3" | "TYPE_UNSPECIFIED"`) is that type.
    // `string & {}` (a name this package does not know yet, kept as sent) is a string too.
    const scalar = (u: ts.Type): "string" | "number" | "boolean" | undefined =>
      u.isIntersection()
        ? u.types.some((p) => p.flags & ts.TypeFlags.StringLike)
          ? "string"
          : undefined
        : u.flags & ts.TypeFlags.StringLike
          ? "string"
          : u.flags & ts.TypeFlags.NumberLike
            ? "number"
            : u.flags & ts.TypeFlags.BooleanLike
              ? "boolean"
              : undefined;
    const kinds = new Set(t.types.map(scalar));
    const [only] = kinds;
    return kinds.size === 1 && only !== undefined ? { type: only } : ANY;
  }
  if (checker.isArrayType(t)) {
    const item = checker.getTypeArguments(t as ts.TypeReference)[0];
    const items = item ? typeOf(checker.getNonNullableType(item), checker, sink, path) : ANY;
    // Pulumi has no list of lists here: such an item is Any.
    return { type: "array", items: ("type" in items && items.type === "array" ? ANY : items) as never };
  }
  const index = t.getStringIndexType();
  if (index && t.getProperties().length === 0)
    return { type: "object", additionalProperties: typeOf(index, checker, sink, path) as never };
  if (sink && t.flags & ts.TypeFlags.Object && t.getProperties().length > 0) {
    const name = `${sink.prefix}${path.map((p) => p.charAt(0).toUpperCase() + p.slice(1)).join("")}`;
    if (!(name in sink.types)) {
      sink.types[name] = { type: "object", properties: {} };
      sink.types[name] = { type: "object", ...objectOf(t, checker, sink, path) };
    }
    return { $ref: `#/types/${name}` };
  }
  return ANY;
}
