// Prints the closing lines over the vitest and Playwright JSON reports: each test that failed, or passed only
// on a retry, by file and name with the first lines of its error (a CI log keeps only its tail), then
// "tests: N passed, N failed, N skipped".
import fs from "node:fs";
import path from "node:path";

let passed = 0,
  failed = 0,
  skipped = 0;
const failures = [];
const where = (file) => path.relative(process.cwd(), file ?? "?");
/** The first lines of an error message, without colours or its stack: what a log's tail can afford. */
const firstLines = (message, lines = 4) =>
  String(message ?? "")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the colours' escape sequences
    .replace(/\u001b\[[0-9;]*m/g, "")
    .split("\n")
    .filter((l) => l.trim() !== "" && !/^\s+at /.test(l))
    .slice(0, lines)
    .map((l) => `      ${l.slice(0, 200)}`);
const failure = (name, message) => [name, ...firstLines(message)].join("\n");

// Further vitest reports (the cluster tests) may follow the two.
const [vitestFile, playwrightFile, ...moreVitest] = process.argv.slice(2);
for (const file of [vitestFile, ...moreVitest]) {
  if (!fs.existsSync(file)) {
    failed += 1;
    failures.push(`${file}: no report (the run stopped before writing it)`);
    continue;
  }
  const v = JSON.parse(fs.readFileSync(file, "utf8"));
  passed += v.numPassedTests ?? 0;
  failed += v.numFailedTests ?? 0;
  skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
  for (const suite of v.testResults ?? []) {
    const failedHere = (suite.assertionResults ?? []).filter((a) => a.status === "failed");
    for (const a of failedHere) failures.push(failure(`${where(suite.name)} › ${a.fullName ?? a.title}`, a.failureMessages?.[0]));
    // A file that fails to load has no failed assertions, only a message.
    if (suite.status === "failed" && failedHere.length === 0) failures.push(`${where(suite.name)}: ${(suite.message ?? "failed").split("\n")[0]}`);
  }
}

function* specs(suite, titles = []) {
  const here = suite.title && !suite.title.endsWith(".ts") ? [...titles, suite.title] : titles;
  for (const spec of suite.specs ?? []) yield { spec, titles: here };
  for (const child of suite.suites ?? []) yield* specs(child, here);
}
if (fs.existsSync(playwrightFile)) {
  const report = JSON.parse(fs.readFileSync(playwrightFile, "utf8"));
  const s = report.stats ?? {};
  passed += (s.expected ?? 0) + (s.flaky ?? 0);
  failed += s.unexpected ?? 0;
  skipped += s.skipped ?? 0;
  for (const top of report.suites ?? []) {
    for (const { spec, titles } of specs(top)) {
      for (const t of spec.tests ?? []) {
        if (t.status !== "unexpected" && t.status !== "flaky") continue;
        const name = `${where(path.join(report.config?.rootDir ?? "", spec.file))} › [${t.projectName}] ${[...titles, spec.title].join(" › ")}`;
        const error = (t.results ?? []).find((r) => r.error)?.error?.message;
        failures.push(failure(t.status === "flaky" ? `${name} (passed on retry)` : name, error));
      }
    }
  }
} else {
  failed += 1;
  failures.push(`${playwrightFile}: no report (the run stopped before writing it)`);
}
if (failures.length > 0) console.log(`not passed, or passed only on a retry:\n${failures.map((f) => `  ${f}`).join("\n")}`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
