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
  return Object.fromEntries(Object.entries(src).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}
