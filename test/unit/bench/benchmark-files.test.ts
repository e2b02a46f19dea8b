// The runner's one list of benchmarks is the files bench/*.ts: names come from the files, a header
// line keeps the long ones out of the default set, and a name's first words select it.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { listBenchmarks, parseHeader, ROOT, selectBenchmarks } from "../../../bench/support/index.ts";

const all = listBenchmarks(path.join(ROOT, "bench"));
const names = (list: readonly { name: string }[]) => list.map((b) => b.name);

describe("the benchmark list", () => {
  it("is the bench/*.ts files, each with a title", () => {
    expect(names(all)).toEqual(expect.arrayContaining(["engine-overhead", "scale", "emulator-lists"]));
    for (const b of all) {
      expect(b.file).toBe(path.join(ROOT, "bench", `${b.name}.ts`));
      expect(b.title, b.name).not.toBe("");
    }
  });

  it("runs everything but the benchmarks marked only-when-named by default", () => {
    const byDefault = names(selectBenchmarks(all, []));
    for (const long of ["scale", "import-org", "native-plugin", "provider-profile"]) {
      expect(byDefault).not.toContain(long);
      expect(names(selectBenchmarks(all, [long]))).toEqual([long]);
    }
    expect(byDefault).toEqual(expect.arrayContaining(["engine-overhead", "patterns", "emulator-throughput"]));
  });

  it("selects by a name's first words, as the README's `npm run bench -- engine` does", () => {
    expect(names(selectBenchmarks(all, ["engine"]))).toEqual(["engine-overhead"]);
    expect(names(selectBenchmarks(all, ["wider", "data-sources"]))).toEqual(["data-sources", "wider-org"]);
    expect(names(selectBenchmarks(all, ["emulator"]))).toEqual([
      "emulator-grpc",
      "emulator-lists",
      "emulator-throughput",
      "emulator-webhooks",
    ]);
    expect(selectBenchmarks(all, ["emulator"]).every((b) => b.verbatim)).toBe(true);
  });

  it("refuses a name that selects nothing, listing the names there are", () => {
    expect(() => selectBenchmarks(all, ["engin"])).toThrow(/unknown benchmark "engin".*engine-overhead/);
  });

  it("reads the title and the only-when-named reason from the header comment", () => {
    const source =
      "// Scale: big\n//\n// Only when named: about 7 minutes\nimport x from 'y';\n// Only when named: not header\n";
    expect(parseHeader(source)).toEqual({ title: "Scale: big", onlyWhenNamed: "about 7 minutes" });
    expect(parseHeader("// Quick one\nconst x = 1;\n").onlyWhenNamed).toBeUndefined();
    const inline =
      "// Backends\n// Run: npm run bench -- state-backends (only when named: about 15 minutes).\n";
    expect(parseHeader(inline).onlyWhenNamed).toBe("about 15 minutes");
  });
});
