// Prints one closing line over the vitest and Playwright JSON reports: "tests: N passed, N failed, N skipped".
import fs from "node:fs";

let passed = 0,
  failed = 0,
  skipped = 0;
// Further vitest reports (the cluster tests) may follow the two.
const [vitestFile, playwrightFile, ...moreVitest] = process.argv.slice(2);
for (const file of [vitestFile, ...moreVitest]) {
  if (fs.existsSync(file)) {
    const v = JSON.parse(fs.readFileSync(file, "utf8"));
    passed += v.numPassedTests ?? 0;
    failed += v.numFailedTests ?? 0;
    skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
  } else failed += 1;
}
if (fs.existsSync(playwrightFile)) {
  const s = JSON.parse(fs.readFileSync(playwrightFile, "utf8")).stats ?? {};
  passed += (s.expected ?? 0) + (s.flaky ?? 0);
  failed += s.unexpected ?? 0;
  skipped += s.skipped ?? 0;
} else failed += 1;
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
