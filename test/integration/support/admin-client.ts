// One emulator per test file and a client holding its admin token, started before the file's tests
// and closed after them.
import { afterAll, beforeAll } from "vitest";
import type { EmulatorHandle } from "../../../emulator/index.js";
import { startEmulator } from "../../../emulator/index.js";
import type { IrvClientOptions } from "../../../sdk/index.js";
import { IrvClient } from "../../../sdk/index.js";

/** Filled in by the time the tests run. */
export interface AdminClient {
  emulator: EmulatorHandle;
  client: IrvClient;
}

/**
 * Registers the hooks that start the emulator and the admin client for the calling test file.
 *
 * @example
 * const ctx = useAdminClient();
 * it("…", async () => { await ctx.client.groups.create(ctx.emulator.orgUid, { name: "a" }); });
 */
export function useAdminClient(options: Partial<IrvClientOptions> = {}): AdminClient {
  const ctx = {} as AdminClient;
  beforeAll(async () => {
    ctx.emulator = await startEmulator({ host: "127.0.0.1", port: 0 });
    ctx.client = new IrvClient({ baseUrl: ctx.emulator.baseUrl, token: ctx.emulator.adminToken, ...options });
  });
  afterAll(async () => {
    await ctx.client?.close();
    await ctx.emulator?.close();
  });
  return ctx;
}
