import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import * as irv from "../../../provider/index.js";
import { IrvResource } from "../../../provider/resource/index.js";
import { RESOURCE_TYPES } from "../../../provider/stub/index.js";

const resourceClasses = Object.entries(irv.iam).filter(
  ([, v]) => typeof v === "function" && v.prototype instanceof pulumi.dynamic.Resource,
);

describe("resource classes", () => {
  it("are found in the iam namespace, one per resource type", () => {
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
