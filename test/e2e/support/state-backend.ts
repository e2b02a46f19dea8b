// The state backends the e2e tests run stacks on: the harness's private file backend, and the
// Pulumi CLI's PostgreSQL DIY backend on a throwaway server (scripts/postgres-server.ts) that the
// test file starts and stops itself.
import { afterAll, beforeAll } from "vitest";
import type { PostgresServer } from "../../../scripts/postgres-server.js";
import { startPostgres } from "../../../scripts/postgres-server.js";

/** A state backend of the e2e tests. */
export type StateBackendKind = "file" | "postgres";

/**
 * Every backend, for `describe.each`.
 *
 * @example
 * describe.each(STATE_BACKENDS)("recover on the %s backend", (backend) => { … });
 */
export const STATE_BACKENDS: readonly StateBackendKind[] = ["file", "postgres"];

/** Backend URLs for the stacks of a test file, available once `beforeAll` ran. */
export interface TestBackend {
  readonly kind: StateBackendKind;
  /** A fresh backend for one stack: a new database's URL, or undefined for the harness's file backend. */
  newUrl(): Promise<string | undefined>;
  /** The running server (postgres only). */
  readonly server: PostgresServer | undefined;
}

let databases = 0;

/**
 * Registers `beforeAll`/`afterAll` hooks that start a PostgreSQL server for `postgres` (and stop it
 * after the stacks registered later are disposed: afterAll hooks run in reverse). For `file`,
 * nothing to start. Register it before the hooks that create stacks.
 *
 * @example
 * const backend = useStateBackend("postgres");
 * beforeAll(async () => { stack = await createStack({ program, backendUrl: await backend.newUrl() }); });
 */
export function useStateBackend(kind: StateBackendKind): TestBackend {
  let server: PostgresServer | undefined;
  if (kind === "postgres") {
    beforeAll(async () => {
      server = await startPostgres();
    });
    afterAll(async () => {
      await server?.stop();
    });
  }
  return {
    kind,
    get server() {
      return server;
    },
    async newUrl() {
      if (kind === "file") return undefined;
      if (server === undefined) throw new Error("useStateBackend: used before beforeAll ran");
      return server.createDatabase(`stack_${process.pid}_${++databases}`);
    },
  };
}
