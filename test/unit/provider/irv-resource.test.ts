import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import * as irv from "../../../provider/index.js";
import { IrvResource } from "../../../provider/resource/index.js";
import { RESOURCE_TYPES } from "../../../provider/stub/index.js";

const resourceClasses = [
  ...Object.entries(irv.iam),
  ...Object.entries(irv.registry),
  ...Object.entries(irv.events),
].filter(([, v]) => typeof v === "function" && v.prototype instanceof pulumi.dynamic.Resource);

describe("resource classes", () => {
  it("are found in the iam, registry and events namespaces, one per resource type", () => {
    expect(resourceClasses.map(([name]) => name).sort()).toEqual([...RESOURCE_TYPES].sort());
  });

  // The preview of an update knows a dynamic resource's id but none of its outputs: a uid taken from
  // the outputs made every child preview as a replacement (issue 17). IrvResource derives it from the id.
  for (const [name, cls] of resourceClasses)
    it(`${name} extends IrvResource, so its uid is its id and it has the static get`, () => {
      expect(cls.prototype).toBeInstanceOf(IrvResource);
      expect(typeof (cls as unknown as typeof IrvResource).get).toBe("function");
    });
});

describe("declaring a resource", () => {
  pulumi.runtime.setMocks(
    {
      newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
      call: (args) => args.inputs,
    },
    "project",
    "stack",
    false,
  );
  const declare = (name: string) =>
    new irv.iam.Group(name, { parentUid: "0123456789abcdef0123456789abcdef01234567", name });

  // The files of the stack traces formatted with at least one frame while `work` runs.
  const stacksTaken = (work: () => void): string[][] => {
    const prepare = Error.prepareStackTrace;
    const stacks: string[][] = [];
    Error.prepareStackTrace = (error, frames) => {
      if (frames.length > 0) stacks.push(frames.map((f) => f.getFileName() ?? ""));
      return prepare ? prepare(error, frames) : String(error);
    };
    try {
      work();
    } finally {
      Error.prepareStackTrace = prepare;
    }
    return stacks;
  };
  const stacksFormatted = (work: () => void): number => stacksTaken(work).length;

  // Regression: @pulumi/pulumi formatted a stack trace (through source-map-support in a program) for
  // the debug promise of every property of every resource: 10 of 28 CPU seconds of a 3,000-resource
  // up, all before the first API call. Only the source position's own stack remains.
  it("formats one stack trace (the engine's source position), not one per property, and restores Error.stackTraceLimit", () => {
    const limit = Error.stackTraceLimit;
    expect(stacksFormatted(() => declare("team-a"))).toBe(1);
    expect(Error.stackTraceLimit).toBe(limit);
  });

  it("keeps every debug stack when PULUMI_DEBUG_PROMISE_LEAKS asks for them", () => {
    process.env.PULUMI_DEBUG_PROMISE_LEAKS = "1";
    try {
      expect(stacksFormatted(() => declare("team-b"))).toBeGreaterThan(5);
    } finally {
      delete process.env.PULUMI_DEBUG_PROMISE_LEAKS;
    }
  });

  // Regression: @pulumi/pulumi skips one concrete class's frames, so the engine recorded a line of
  // pulumi-irv's IrvResource as every resource's source position instead of the user's line.
  it("takes the source position from the user's code: no frame of pulumi-irv's own classes", () => {
    const [stack = []] = stacksTaken(() => declare("team-c"));
    expect(stack.filter((file) => /\/provider\/(resource|iam)\//.test(file))).toEqual([]);
    expect(stack.some((file) => file.endsWith("irv-resource.test.ts"))).toBe(true);
  });

  it("restores Error.stackTraceLimit and Error.prepareStackTrace when the declaration throws", () => {
    const prepare = Error.prepareStackTrace;
    const limit = Error.stackTraceLimit;
    const notAResource = {} as pulumi.Resource;
    expect(
      () => new irv.iam.Group("bad", { parentUid: "0123", name: "bad" }, { parent: notAResource }),
    ).toThrow(/parent/);
    expect(Error.stackTraceLimit).toBe(limit);
    expect(Error.prepareStackTrace).toBe(prepare);
  });
});
