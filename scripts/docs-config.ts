// npm run docs:config – rewrites README.md's configuration section from lib/config.ts (a unit test,
// lib/config.test.ts, fails while they differ).
import fs from "node:fs";
import { withConfigSection } from "../lib/config";

const file = new URL("../README.md", import.meta.url);
const before = fs.readFileSync(file, "utf8");
const after = withConfigSection(before);
fs.writeFileSync(file, after);
console.log(after === before ? "README.md: configuration section already up to date" : "README.md: configuration section rewritten");
