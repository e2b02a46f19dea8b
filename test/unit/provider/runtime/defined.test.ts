// `defined` builds the state of every resource a read returns (several calls per resource), now
// with a loop: what it keeps and drops must stay what it was.
import { describe, expect, it } from "vitest";
import { defined } from "../../../../provider/runtime/kinds/parent-uid.js";

describe("defined", () => {
  it("drops only undefined values and keeps the keys in their order", () => {
    const out = defined({ b: null, a: undefined, c: false, d: "", e: 0, f: { g: undefined } });
    expect(Object.keys(out)).toEqual(["b", "c", "d", "e", "f"]);
    expect(out).toEqual({ b: null, c: false, d: "", e: 0, f: { g: undefined } });
  });

  it("keeps a __proto__ key as a plain key, the prototype untouched", () => {
    const src = JSON.parse('{"__proto__": {"polluted": true}, "name": "x"}') as Record<string, unknown>;
    const out = defined(src) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, "__proto__")).toBe(true);
    expect((out as { polluted?: boolean }).polluted).toBeUndefined();
    expect(out.name).toBe("x");
  });

  it("leaves out inherited keys", () => {
    const src = Object.assign(Object.create({ inherited: 1 }), { own: 2 });
    expect(defined(src)).toEqual({ own: 2 });
  });
});
