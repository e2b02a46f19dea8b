import { randomBytes } from "node:crypto";

/**
 * A fresh root organization uid: 40 hex digits.
 *
 * @example
 * newRootUid(); // "3f2a…" (40 characters)
 */
export function newRootUid(): string {
  return randomBytes(20).toString("hex");
}

/**
 * A fresh flat role uid: 40 hex digits, like the root (role uids carry no path).
 *
 * @example
 * newRoleUid().length; // 40
 */
export function newRoleUid(): string {
  return randomBytes(20).toString("hex");
}

/**
 * A fresh child uid: the parent's uid, `/`, and 16 hex digits.
 *
 * @example
 * newChildUid(orgUid); // `${orgUid}/9c0d…`
 */
export function newChildUid(parentUid: string): string {
  return `${parentUid}/${randomBytes(8).toString("hex")}`;
}

/**
 * A root uid: 40 lowercase hex digits.
 *
 * @example
 * ROOT_UID_PATTERN.test(orgUid); // true
 */
export const ROOT_UID_PATTERN = /^[0-9a-f]{40}$/;

/**
 * The uid `levels` segments up (`levels` = 1: the parent), or undefined when the uid is not that deep.
 *
 * @example
 * ancestorUid("a/b/c", 1); // "a/b"
 * ancestorUid("a", 1);     // undefined
 */
export function ancestorUid(uid: string, levels: number): string | undefined {
  let end = uid.length;
  for (let i = 0; i < levels; i++) {
    end = uid.lastIndexOf("/", end - 1);
    if (end <= 0) return undefined;
  }
  return uid.slice(0, end);
}

/**
 * Whether `uid` is `scope` itself or lies anywhere below it.
 *
 * @example
 * isSelfOrDescendant("a/b/c", "a/b"); // true
 * isSelfOrDescendant("a/bc", "a/b");  // false
 */
export function isSelfOrDescendant(uid: string, scope: string): boolean {
  return uid === scope || (uid.length > scope.length && uid.startsWith(scope) && uid[scope.length] === "/");
}
