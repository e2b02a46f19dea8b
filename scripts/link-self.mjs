#!/usr/bin/env node
// Links node_modules/pulumi-irv to this checkout, so that the examples and test programs inside the
// repo — and the Pulumi provider process that runs from their directories — resolve `pulumi-irv`
// exactly as a user's program resolves the installed package (Node's self-reference does not reach
// the provider process, which loads code from a string).
import { lstatSync, mkdirSync, readlinkSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const link = join(root, "node_modules", "pulumi-irv");
mkdirSync(dirname(link), { recursive: true });
try {
  if (lstatSync(link).isSymbolicLink() && readlinkSync(link) === "..") process.exit(0);
  rmSync(link, { recursive: true, force: true });
} catch {
  // No link yet.
}
symlinkSync("..", link, "dir");
