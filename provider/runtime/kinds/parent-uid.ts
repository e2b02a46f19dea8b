/**
 * The uid of the group a nested resource lives in: its uid without the last segment.
 *
 * @example
 * parentUidOf("aaaa/bbbb/cccc"); // "aaaa/bbbb"
 */
export function parentUidOf(uid: string): string {
  const i = uid.lastIndexOf("/");
  return i < 0 ? "" : uid.slice(0, i);
}

/**
 * The same object without its `undefined` values, so that state never holds `undefined`.
 *
 * @example
 * defined({ a: 1, b: undefined }); // { a: 1 }
 */
export function defined<T extends object>(src: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  // A loop, not entries → filter → fromEntries: several calls per resource on every read.
  const out: Record<string, unknown> = {};
  for (const k in src) {
    if (!Object.hasOwn(src, k)) continue;
    const v = (src as Record<string, unknown>)[k];
    if (v === undefined) continue;
    // A `__proto__` key stays a plain key (an assignment would set the prototype).
    if (k === "__proto__")
      Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    else out[k] = v;
  }
  return out as { [K in keyof T]?: Exclude<T[K], undefined> };
}
