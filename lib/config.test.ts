import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { configMarkdown, DEFAULT_POOL_SIZE, parseConfig, VARIABLES, withConfigSection } from "./config";

describe("config – every variable declared once, validated at start", () => {
  it("defaults: an empty environment is a valid configuration", () => {
    expect(parseConfig({})).toMatchObject({
      PORT: 3000,
      HOST: "0.0.0.0",
      DB_POOL_SIZE: DEFAULT_POOL_SIZE,
      CACHE: true,
      RATE_LIMIT: true,
      DATABASE_REPLICA_URLS: [],
    });
  });

  it("an empty value counts as unset", () => {
    expect(parseConfig({ PORT: "", CACHE: "" })).toMatchObject({ PORT: 3000, CACHE: true });
  });

  it.each([
    [undefined, true],
    ["1", true],
    ["on", true],
    ["TRUE", true],
    ["0", false],
    ["false", false],
    ["off", false],
  ])("flags: LOG_REQUESTS=%s → %s", (value, expected) => expect(parseConfig({ LOG_REQUESTS: value }).LOG_REQUESTS).toBe(expected));

  it("lists are comma-separated and trimmed", () => {
    expect(parseConfig({ DATABASE_REPLICA_URLS: " postgres://a/x , postgres://b/x ," }).DATABASE_REPLICA_URLS).toEqual(["postgres://a/x", "postgres://b/x"]);
  });

  it('a multi-host URL (docs/deploy.md "Failover") is one URL, in DATABASE_URL and in DATABASE_REPLICA_URLS', () => {
    const multi = "postgres://u:p@10.0.0.1:5432,10.0.0.2:5432/markets?target_session_attrs=primary";
    const parsed = parseConfig({ DATABASE_URL: multi, DATABASE_REPLICA_URLS: `postgres://10.0.0.1:5432/markets,${multi}, postgresql://10.0.0.3/markets` });
    expect(parsed.DATABASE_URL).toBe(multi);
    expect(parsed.DATABASE_REPLICA_URLS).toEqual(["postgres://10.0.0.1:5432/markets", multi, "postgresql://10.0.0.3/markets"]);
  });

  it.each([
    ["DB_POOL_SIZE", "abc"],
    ["DB_POOL_SIZE", "0"],
    ["PORT", "70000"],
    ["CACHE", "maybe"],
    ["DB_STATEMENT_TIMEOUT_MS", "-1"],
    ["RATE_LIMIT_RPS", "fast"],
    ["DATABASE_URL", "mysql://db/markets"],
  ])("refuses %s=%s, naming the variable, its value and what it takes", (name, value) => {
    expect(() => parseConfig({ [name]: value })).toThrow(new RegExp(`${name}="${value}" is not valid: expected `));
  });

  it("names every bad variable at once", () => {
    expect(() => parseConfig({ PORT: "x", DB_POOL_SIZE: "y" })).toThrow(/PORT="x".*DB_POOL_SIZE="y"/);
  });

  it("declares every variable with a description", () => {
    for (const [name, v] of Object.entries(VARIABLES)) expect(v.description.length, name).toBeGreaterThan(10);
  });
});

describe("README – its configuration section is what lib/config.ts declares", () => {
  it("matches the generated section (npm run docs:config rewrites it)", () => {
    const readme = fs.readFileSync(new URL("../README.md", import.meta.url), "utf8");
    expect(readme).toContain(configMarkdown());
    expect(withConfigSection(readme)).toBe(readme);
  });
});
