#!/usr/bin/env node
// The `pulumi-irv` bin: operations on stacks and organizations (see run-cli.ts).
// First: an unsupported Node says so in one line before any dependency loads.
import "../node-version.js";
import { runCli } from "./run-cli.js";

// Exit at once: the clients keep pooled keep-alive connections open.
process.exit(await runCli(process.argv.slice(2)));
