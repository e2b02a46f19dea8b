#!/usr/bin/env node
// The emulator's command line: `npm run emulator -- [--port 0] [--data FILE] …`. Prints one JSON
// ready line on stdout, serves until SIGTERM/SIGINT, then closes and exits 0. A bad command line
// exits 2 with a message naming the flag; a start-up failure (unreadable fixtures, port taken) too.
import { parseCliArgs, USAGE, UsageError } from "./cli-args.js";
import { startEmulator } from "./start-emulator.js";

async function main(): Promise<void> {
  let command: ReturnType<typeof parseCliArgs>;
  try {
    command = parseCliArgs(process.argv.slice(2));
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`irv-emulator: ${e.message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  if (command.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  try {
    emulator = await startEmulator(command.options);
  } catch (e) {
    // Start-up failures name their input; fixtures problems are the --fixtures flag's.
    process.stderr.write(`irv-emulator: ${(e as Error).message.replace(/^fixtures\b/, "--fixtures")}\n`);
    process.exit(2);
  }
  const { baseUrl, authUrl, issuerUrl, orgUid, adminToken, grpcTarget } = emulator;
  const host = command.options.host ?? "127.0.0.1";
  if (!/^(127\.\d+\.\d+\.\d+|::1|localhost)$/.test(host)) {
    process.stderr.write(
      `irv-emulator: warning: listening on ${host}, not loopback: the local issuer (${issuerUrl}) mints tokens for anyone who can reach it\n`,
    );
  }
  const stop = () => {
    emulator.close().then(
      () => process.exit(0),
      (e: unknown) => {
        process.stderr.write(`irv-emulator: error while closing: ${String(e)}\n`);
        process.exit(1);
      },
    );
  };
  // Before the ready line: a SIGTERM sent as soon as it is read found no handler yet and killed
  // the process (exit by signal instead of 0; seen in CI under load).
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  // grpcTarget: the same port, as gRPC clients name it (host:port, e.g. `grpcurl -plaintext`).
  process.stdout.write(
    `${JSON.stringify({ baseUrl, authUrl, issuerUrl, orgUid, adminToken, grpcTarget })}\n`,
  );
}

// No top-level await: the self-contained `irv-emulator` (scripts/emulator-executable.ts) runs this
// very file bundled as CommonJS, so that both have one command line, one --help and one ready line.
main().catch((e: unknown) => {
  process.stderr.write(`irv-emulator: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
