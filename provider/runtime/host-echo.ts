// The dynamic-provider host answers a failed read, delete, check or diff with the error's message
// (which the engine shows, once, on the resource) and also prints `${error}: ${error.stack}` to its
// stderr, which the engine shows a second time, as a message of the stack. For the errors this
// package has already worded, that second copy is noise: it is dropped, and nothing else is.
const echoes = new Set<string>();
let filtering = false;

/**
 * Marks a worded error so that the host's stderr echo of it is dropped; returns the error.
 *
 * @example
 * throw reportedOnce(Object.assign(e, { message: `reading group ${uid}: ${why}`, stack: "" }));
 */
export function reportedOnce<E extends Error>(error: E): E {
  if (!filtering) {
    filtering = true;
    const original = console.error.bind(console);
    console.error = (...args: unknown[]) => {
      if (args.length === 1 && typeof args[0] === "string" && echoes.delete(args[0])) return;
      original(...args);
    };
  }
  echoes.add(`${error}: ${error.stack}`);
  return error;
}
