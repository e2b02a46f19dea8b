// With the `u` flag a surrogate pair is one code point, so only a lone surrogate matches.
const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * Whether a string is well-formed Unicode: no lone surrogate (`"\ud800"` is not). SQLite, UTF-8 and
 * protobuf cannot carry a lone surrogate: it would be stored as U+FFFD, and two different names would
 * collide.
 *
 * @example
 * isWellFormed("café");   // true
 * isWellFormed("\ud800"); // false
 */
export function isWellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/**
 * One node met by {@link findInJson}.
 *
 * @example
 * findInJson(body, (node: JsonNode) => (node.depth > 3 ? node.path() : undefined));
 */
export interface JsonNode {
  value: unknown;
  /** The object key or array index under which the node sits; undefined for the root. */
  key: string | number | undefined;
  /** How many containers (objects, arrays) enclose the node: 0 for the root. */
  depth: number;
  /** The node's JSON path from the root, dot-separated (`settings.claims.0`); `""` for the root. */
  path(): string;
}

interface Frame {
  value: unknown;
  key: string | number | undefined;
  depth: number;
  parent: Frame | undefined;
}

function pathOf(frame: Frame): string {
  const keys: string[] = [];
  for (let f: Frame | undefined = frame; f?.key !== undefined; f = f.parent) keys.push(String(f.key));
  return keys.reverse().join(".");
}

/**
 * Visits every node of a parsed JSON value, without recursion (a body nested 500 000 levels deep
 * must not overflow the stack), until `visit` returns something: that is the answer. A container's
 * children are visited only after the container itself, so a visitor that stops at a depth limit
 * never walks below it.
 *
 * @example
 * const tooDeep = findInJson(value, (n) => (n.depth > 8 ? n.path() : undefined));
 */
export function findInJson<T>(root: unknown, visit: (node: JsonNode) => T | undefined): T | undefined {
  const stack: Frame[] = [{ value: root, key: undefined, depth: 0, parent: undefined }];
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    const f = frame;
    const found = visit({ value: f.value, key: f.key, depth: f.depth, path: () => pathOf(f) });
    if (found !== undefined) return found;
    const v = f.value;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--)
        stack.push({ value: v[i], key: i, depth: f.depth + 1, parent: f });
    } else if (v !== null && typeof v === "object") {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, child] = entries[i] as [string, unknown];
        stack.push({ value: child, key: k, depth: f.depth + 1, parent: f });
      }
    }
  }
  return undefined;
}

/**
 * Whether a value is a JSON container (object or array).
 *
 * @example
 * isContainer([]); // true
 * isContainer("x"); // false
 */
export function isContainer(value: unknown): value is object {
  return value !== null && typeof value === "object";
}
