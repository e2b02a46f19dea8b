// Keeps one GitLab issue for drift, through GitLab's issues API: with drift (second argument 1), the
// open issue labelled irv-drift gets the report as its description, else one is opened; without
// (0), that issue is closed. Run in a pipeline: CI_API_V4_URL and CI_PROJECT_ID come from GitLab,
// and DRIFT_ISSUES_TOKEN is a masked project variable (a project access token with the `api` scope).
import { readFileSync } from "node:fs";

const LABEL = "irv-drift";
const [file = "drift.md", found = "1"] = process.argv.slice(2);
const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run this in a scheduled pipeline (see .gitlab-ci.yml)`);
  return v;
};
const issues = `${env("CI_API_V4_URL")}/projects/${env("CI_PROJECT_ID")}/issues`;
const headers = { "PRIVATE-TOKEN": env("DRIFT_ISSUES_TOKEN"), "content-type": "application/json" };

async function call(url, init = {}) {
  const res = await fetch(url, { ...init, headers });
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${url}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}

const [open] = await call(`${issues}?labels=${LABEL}&state=opened&per_page=1`);
if (found === "1") {
  const description = readFileSync(file, "utf8");
  if (open) await call(`${issues}/${open.iid}`, { method: "PUT", body: JSON.stringify({ description }) });
  else
    await call(issues, {
      method: "POST",
      body: JSON.stringify({ title: "Drift in stack prod", labels: LABEL, description }),
    });
  console.log(open ? `updated issue #${open.iid}` : "opened the drift issue");
} else if (open) {
  await call(`${issues}/${open.iid}`, { method: "PUT", body: JSON.stringify({ state_event: "close" }) });
  console.log(`no drift: closed issue #${open.iid}`);
}
