import { expect, test } from "vitest";
import { retryAfterMs } from "./http";

test.each([
  { value: "3", ms: 3000 },
  { value: " 0 ", ms: 0 },
  { value: "Thu, 01 Jan 1970 00:00:05 GMT", ms: 5000 },
  { value: "Thu, 01 Jan 1970 00:00:00 GMT", ms: 0 },
  { value: "soon", ms: undefined },
  { value: null, ms: undefined },
])("retryAfterMs – $value → $ms", ({ value, ms }) => {
  expect(retryAfterMs(value, 0)).toBe(ms);
});
