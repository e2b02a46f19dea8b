// Posts the access review as one merge-request note through GitLab's MR notes API: the note that
// starts with the review's hidden marker is updated, else one is created. Run in a merge-request
// pipeline: CI_API_V4_URL, CI_PROJECT_ID and CI_MERGE_REQUEST_IID come from GitLab, and
// REVIEW_NOTES_TOKEN is a masked project variable (a project access token with the `api` scope).
import { readFileSync } from "node:fs";

const MARKER = "<!-- pulumi-irv:access-review -->";
const body = readFileSync(process.argv[2] ?? "access-review.md", "utf8");
const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run this in a merge-request pipeline (see .gitlab-ci.yml)`);
  return v;
};
const notes = `${env("CI_API_V4_URL")}/projects/${env("CI_PROJECT_ID")}/merge_requests/${env("CI_MERGE_REQUEST_IID")}/notes`;
const headers = { "PRIVATE-TOKEN": env("REVIEW_NOTES_TOKEN"), "content-type": "application/json" };

async function call(url, init = {}) {
  const res = await fetch(url, { ...init, headers });
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${url}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}

let mine;
for (let page = 1; mine === undefined; page++) {
  const list = await call(`${notes}?per_page=100&page=${page}&sort=asc`);
  mine = list.find((n) => typeof n.body === "string" && n.body.startsWith(MARKER));
  if (list.length < 100) break;
}
await call(mine ? `${notes}/${mine.id}` : notes, {
  method: mine ? "PUT" : "POST",
  body: JSON.stringify({ body }),
});
console.log(mine ? `updated note ${mine.id}` : "posted the access review note");
