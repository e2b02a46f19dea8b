// Loaded with `node --import ./bench/support/register-ts.mjs`: lets Node's own type stripping run the
// repository's TypeScript sources as they are written, i.e. with `.js` specifiers that name `.ts`
// files (the TypeScript `nodenext` convention that vitest resolves for the tests). Only relative
// specifiers that do not exist as `.js` are retried as `.ts`; everything else resolves as usual.
import { registerHooks } from "node:module";

registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      const relative = specifier.startsWith("./") || specifier.startsWith("../");
      if (relative && specifier.endsWith(".js") && error?.code === "ERR_MODULE_NOT_FOUND")
        return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
      throw error;
    }
  },
});
