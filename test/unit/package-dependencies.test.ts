// Regression (the emulator's gRPC server imported @grpc/grpc-js, a dependency of the repository
// only): every package a published package's code imports at run time must be one of its own
// dependencies, or `npm install pulumi-irv-emulator` gives a server that cannot start. Only this
// repository's workspaces resolved it. Type-only imports are erased, and node: modules are Node's.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    if (["node_modules", "dist", "gen", "dist-proto"].includes(f)) return [];
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith(".ts") && !p.endsWith(".d.ts") ? [p] : [];
  });
}

const IMPORT =
  /^\s*(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s+"([^".][^"]*)"|\brequire\("([^".][^"]*)"\)|\bimport\("([^".][^"]*)"\)/gm;

function importedPackages(dirs: readonly string[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of dirs.flatMap((d) => sources(path.join(ROOT, d))))
    for (const m of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3] ?? "";
      if (spec.startsWith("node:")) continue;
      const name = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : (spec.split("/")[0] ?? "");
      if (!found.has(name)) found.set(name, path.relative(ROOT, file));
    }
  return found;
}

function declared(manifest: string): Set<string> {
  const j = JSON.parse(readFileSync(path.join(ROOT, manifest), "utf8")) as Record<
    string,
    Record<string, string>
  >;
  return new Set(
    [j.dependencies, j.peerDependencies, j.optionalDependencies].flatMap((d) => Object.keys(d ?? {})),
  );
}

describe("the published packages' dependencies", () => {
  it.each([
    ["emulator/package.json", ["emulator"], {}],
    ["policy/package.json", ["policy"], {}],
    [
      "package.json",
      ["provider", "review", "sdk"],
      {
        "pulumi-irv": "its own name (the stub loads `pulumi-irv/internal/runtime`)",
        "@grpc/grpc-js":
          "provider/plugin only: bundled into the plugin executable, not run from the npm package",
        "google-protobuf": "provider/plugin only, as @grpc/grpc-js",
      },
    ],
  ] as const)("%s lists every package its code imports", (manifest, dirs, exempt: Record<string, string>) => {
    const have = declared(manifest);
    const missing = [...importedPackages(dirs)]
      .filter(([name]) => !have.has(name) && !(name in exempt))
      .map(([name, file]) => `${name} (imported by ${file})`);
    expect(missing).toEqual([]);
  });
});

// The import graph points one way (docs/development.md): the typed client knows nothing of the
// access model, the access model nothing of the provider, and the packs and the emulator reach the
// root package only by its published names, as an installed copy must.
const RELATIVE = /(?:\bfrom\s+|\bimport\()"(\.{1,2}\/[^"]*)"/g;

function reachesOutside(dir: string, allowed: readonly string[]): string[] {
  const bad: string[] = [];
  for (const file of sources(path.join(ROOT, dir)))
    for (const m of readFileSync(file, "utf8").matchAll(RELATIVE)) {
      const target = path.relative(ROOT, path.resolve(path.dirname(file), m[1] ?? ""));
      if (![dir, ...allowed].some((d) => target === d || target.startsWith(`${d}/`)))
        bad.push(`${path.relative(ROOT, file)} → ${target}`);
    }
  return bad;
}

describe("the import graph", () => {
  it.each([
    ["sdk", []],
    ["review", ["sdk/index.js"]],
    ["provider", ["sdk/index.js", "review/index.js"]],
    ["emulator", []],
    ["policy", []],
  ] as const)("%s imports nothing of ours but %j", (dir, allowed) => {
    expect(reachesOutside(dir, allowed)).toEqual([]);
  });
});
