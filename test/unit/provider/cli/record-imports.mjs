// Loaded with `node --import`: records every module the process resolves and, at exit, writes their
// URLs as JSON to the file named by RECORD_IMPORTS_FILE (what a command loaded before it answered).
import { writeFileSync } from "node:fs";
import { registerHooks } from "node:module";

const urls = [];
registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    urls.push(resolved.url);
    return resolved;
  },
});
process.on("exit", () => writeFileSync(process.env.RECORD_IMPORTS_FILE, JSON.stringify(urls)));
