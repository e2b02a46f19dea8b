// Preloaded (node --require) into the dynamic-provider plugin by our pulumi-resource-pulumi-nodejs shim.
//
// Why: the engine of Pulumi CLI 3.259 (the newest this machine can build) sends the Read of an
// `import` resource option with neither state nor inputs, so @pulumi/pulumi's dynamic-provider host
// cannot find the serialized provider (`__provider`) and fails with "code must be a string". Newer
// engines send the inputs and this file then does nothing. For pulumi-irv's types the serialized
// provider is a fixed stub that the installed package can produce, so we supply it as the inputs.
"use strict";
const path = require("node:path");

const IRV_TYPE = /^pulumi-nodejs:dynamic\/irv:(\w+)$/;

function fromProgram(request, base) {
  return require(require.resolve(request, { paths: [base] }));
}

// `pulumi-irv/internal/runtime`; packages before the split into three packages call it `pulumi-irv/runtime`
// (the CLI cache, and so this file, is shared by every clone on the machine).
function loadRuntime() {
  try {
    return fromProgram("pulumi-irv/internal/runtime", process.cwd());
  } catch {
    return fromProgram("pulumi-irv/runtime", process.cwd());
  }
}

function typeOf(req) {
  const t = typeof req.getType === "function" ? req.getType() : "";
  if (t) return t;
  // urn:pulumi:<stack>::<project>::<parent$…$type>::<name>
  const parts = String(req.getUrn()).split("::");
  return (parts[2] ?? "").split("$").pop();
}

try {
  const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [process.cwd()] }));
  const grpc = fromProgram("@grpc/grpc-js", pulumiDir);
  const { Struct } = fromProgram("google-protobuf/google/protobuf/struct_pb", pulumiDir);
  const addService = grpc.Server.prototype.addService;
  grpc.Server.prototype.addService = function (service, impl) {
    if (impl && typeof impl.read === "function" && service?.read) {
      const read = impl.read.bind(impl);
      impl.read = async (call, callback) => {
        try {
          const req = call.request;
          // Every refresh reads every resource: look at the type and at the fields' presence
          // before converting anything, and convert only the Read this file repairs.
          const match = IRV_TYPE.exec(typeOf(req));
          const props = req.getProperties();
          const given = req.getInputs();
          if (
            match &&
            !(props && props.getFieldsMap().getLength() > 0) &&
            !given?.getFieldsMap().has("__provider")
          ) {
            const inputs = given ? given.toJavaScript() : {};
            const runtime = loadRuntime();
            req.setInputs(
              Struct.fromJavaScript({ ...inputs, __provider: await runtime.serializedProvider(match[1]) }),
            );
          }
        } catch {
          // Leave the request as it came: the host reports its own error.
        }
        return read(call, callback);
      };
    }
    return addService.call(this, service, impl);
  };
} catch {
  // No @pulumi/pulumi here: the host itself will say so.
}
