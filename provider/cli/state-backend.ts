import { fileBackendDir, lockTakenAt, repairBrokenAttrs } from "./file-backend.js";
import { isPostgresBackend, maskedUrl, postgresLockTakenAt } from "./postgres-backend.js";

/**
 * What recover reads and repairs in a stack's backend, whichever it is.
 *
 * @example
 * const backend = stateBackend((await workspace.whoAmI()).url);
 * const since = await backend.lockTakenAt("dev", "infra");
 */
export interface StateBackend {
  /** The backend's URL for messages, any password masked. */
  readonly shown: string;
  /**
   * Whether recover reads this backend's locks (a file or PostgreSQL backend): then no lock found
   * means none is held. For any other, {@link lockTakenAt} answers undefined and the lock is unknown.
   */
  readonly readsLocks: boolean;
  /** When the run holding the stack's lock began (ms since the epoch), or undefined. */
  lockTakenAt(stackName: string, projectName?: string): Promise<number | undefined>;
  /** Deletes broken `.attrs` sidecars (a file backend's only) and returns them. */
  repairBrokenAttrs(): string[];
}

/**
 * The backend of a `pulumi whoami --verbose` URL: a file directory, the PostgreSQL DIY backend, or
 * one whose locks recover cannot read (the Pulumi Cloud, a bucket).
 *
 * @example
 * stateBackend("postgres://ci:pw@db:5432/state").shown; // "postgres://ci:****@db:5432/state"
 */
export function stateBackend(url: string | undefined): StateBackend {
  const dir = fileBackendDir(url);
  if (dir !== undefined)
    return {
      shown: url ?? dir,
      readsLocks: true,
      lockTakenAt: async (stack, project) => lockTakenAt(dir, stack, project),
      repairBrokenAttrs: () => repairBrokenAttrs(dir),
    };
  if (isPostgresBackend(url))
    return {
      shown: maskedUrl(url),
      readsLocks: true,
      lockTakenAt: (stack, project) => postgresLockTakenAt(url, stack, project),
      repairBrokenAttrs: () => [],
    };
  return {
    shown: url === undefined ? "the current backend" : maskedUrl(url),
    readsLocks: false,
    lockTakenAt: async () => undefined,
    repairBrokenAttrs: () => [],
  };
}
