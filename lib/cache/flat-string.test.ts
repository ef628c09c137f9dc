import { describe, expect, it } from "vitest";
import { flatString } from "./flat-string";

describe("flatString", () => {
  it("gives back an equal string: ASCII, any Unicode, short ones as they are", () => {
    let built = '{"id":"';
    for (let i = 0; i < 40; i++) built += `${i},"name":"Zürich 東京 🚀",`;
    built += '"x":1}';
    expect(flatString(built)).toBe(built);
    expect(flatString("short")).toBe("short");
    expect(flatString("")).toBe("");
  });

  it("keeps a string with a lone surrogate unchanged (UTF-8 could not carry it)", () => {
    const odd = `${"a".repeat(20)}\ud800${"b".repeat(20)}`;
    expect(flatString(odd)).toBe(odd);
    expect(flatString(odd).length).toBe(41);
  });
});
