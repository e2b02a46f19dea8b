#!/usr/bin/env node
// The `pulumi-irv` bin: operations on stacks and organizations (see run-cli.ts).
// First: an unsupported Node says so in one line before any dependency loads.
import "../node-version.js";
import { runCli } from "./run-cli.js";

const code = await runCli(process.argv.slice(2));
// Into a pipe Node writes asynchronously, and process.exit drops what is still queued: a JSON report
// piped to jq lost everything past the pipe's first 64 KiB. A write's callback runs once every write
// before it is out.
await Promise.all(
  [process.stdout, process.stderr].map((s) => new Promise<void>((done) => s.write("", () => done()))),
);
// Exit at once: the clients keep pooled keep-alive connections open.
process.exit(code);
