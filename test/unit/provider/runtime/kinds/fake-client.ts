import type { IrvClient } from "../../../../../sdk/index.js";

/** One call a kind made, by client collection and method. */
export interface Call {
  method: string;
  args: unknown[];
}

/**
 * A client whose collections record every call and answer what `answers` returns (by
 * `<collection>.<method>`), so a kind's wire requests can be read without a server.
 *
 * @example
 * const { client, calls } = fakeClient({ "tags.create": (_p, body) => ({ uid, ...body }) });
 */
export function fakeClient(answers: Record<string, (...args: never[]) => unknown>): {
  client: IrvClient;
  calls: Call[];
} {
  const calls: Call[] = [];
  const collection = (name: string) =>
    new Proxy(
      {},
      {
        get:
          (_t, method: string) =>
          async (...args: unknown[]) => {
            const key = `${name}.${method}`;
            calls.push({ method: key, args });
            const answer = answers[key];
            if (!answer) throw new Error(`unexpected call ${key}`);
            return (answer as (...a: unknown[]) => unknown)(...args);
          },
      },
    );
  const client = new Proxy({}, { get: (_t, name: string) => collection(name) }) as IrvClient;
  return { client, calls };
}
