import { expect, test } from "vitest";
import { PAGE_TOKEN_TTL_MS, PageTokens } from "../../../emulator/lists/index.js";

const secret = Buffer.alloc(32, 7);

test("a token reads back to its cursor for the same query", () => {
  const tokens = new PageTokens(secret, () => 1000);
  expect(tokens.read(tokens.issue("q", ["name", "uid"]), "q")).toEqual(["name", "uid"]);
  expect(tokens.read(tokens.issue("q", [42, "uid"]), "q")).toEqual([42, "uid"]);
});

test("a token of another query, another secret or with an edited body is refused", () => {
  const tokens = new PageTokens(secret, () => 1000);
  const t = tokens.issue("q", ["a", "b"]);
  expect(() => tokens.read(t, "other")).toThrow(/different query/);
  expect(() => new PageTokens(Buffer.alloc(32, 8), () => 1000).read(t, "q")).toThrow(/not a page token/);
  const [, mac] = t.split(".");
  const forged = `${Buffer.from(JSON.stringify({ q: "x", c: ["z", "z"], t: 1000 })).toString("base64url")}.${mac}`;
  expect(() => tokens.read(forged, "q")).toThrow(/not a page token/);
  expect(() => tokens.read("nodot", "q")).toThrow(/not a page token/);
});

test("a token expires after three days: reading it gives no cursor (restart)", () => {
  let now = 0;
  const tokens = new PageTokens(secret, () => now);
  const t = tokens.issue("q", ["a", "b"]);
  now = PAGE_TOKEN_TTL_MS;
  expect(tokens.read(t, "q")).toEqual(["a", "b"]);
  now = PAGE_TOKEN_TTL_MS + 1;
  expect(tokens.read(t, "q")).toBeUndefined();
});
