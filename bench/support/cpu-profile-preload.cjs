// Preloaded (NODE_OPTIONS=--require) into every node process of a profiled Pulumi command by
// bench/provider-profile.ts: samples the process with V8's profiler and writes
// $IRV_CPU_PROF_DIR/<pid>.cpuprofile when it ends. Node's own --cpu-prof writes only on a normal
// exit, and the engine ends its plugins (the dynamic-provider process) with a signal.
"use strict";
const { Session } = require("node:inspector");
const { writeFileSync } = require("node:fs");
const path = require("node:path");

const dir = process.env.IRV_CPU_PROF_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  // The in-thread session answers synchronously, so the profile is written before the process dies.
  session.post("Profiler.enable");
  session.post("Profiler.setSamplingInterval", { interval: 500 });
  session.post("Profiler.start");
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    session.post("Profiler.stop", (err, result) => {
      if (!err) writeFileSync(path.join(dir, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  };
  process.on("exit", write);
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      write();
      process.exit(0);
    });
  }
}
