// Entry point of the pulumi-resource-pulumi-nodejs shim written by scripts/pulumi-cli.ts: runs the
// dynamic-provider host of the program's own @pulumi/pulumi, in this process.
//
// Why a file and not `node -e 'require.resolve(…)'` in the shell script: the engine starts one dynamic
// provider per program run, and resolving the entry in a separate Node process cost a second Node
// start (about 0.04 s of CPU) each time (issue 46). Copied into the shared CLI cache, so it uses only
// Node built-ins and resolves from the directory the engine starts the plugin in (the program's).
"use strict";

const ENTRY = "@pulumi/pulumi/cmd/dynamic-provider";

let entry;
try {
  entry = require.resolve(ENTRY, { paths: [process.cwd()] });
} catch {
  process.stderr.write(
    `pulumi-resource-pulumi-nodejs: cannot resolve ${ENTRY} from ${process.cwd()}; run npm install there.\n`,
  );
  process.exit(1);
}
// The host reads its arguments from process.argv.slice(2); make argv[1] the entry as if node ran it.
process.argv[1] = entry;
require(entry);
