import type { IrvClient } from "../../sdk/index.js";

/**
 * A client made on its first use: a function that needs no API (the identity presets) runs without
 * credentials or a base URL, and one that does fails with the client's own configuration error.
 *
 * @example
 * await read(lazyClient(() => clientFor(settings)), args);
 */
export function lazyClient(make: () => IrvClient): IrvClient {
  let client: IrvClient | undefined;
  return new Proxy({} as IrvClient, {
    get(_target, key) {
      client ??= make();
      const value = Reflect.get(client, key, client);
      return typeof value === "function" ? value.bind(client) : value;
    },
  });
}
