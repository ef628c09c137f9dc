// GET /v1/asyncapi.json: the AsyncAPI document of the push channels, served like /v1/openapi.json and
// valid as served (lib/api/asyncapi.test.ts holds its content to the channels and the REST schemas).
import { DiagnosticSeverity, Parser } from "@asyncapi/parser";
import { expect, test } from "../fixtures";

test("GET /v1/asyncapi.json – answers 200 JSON: an AsyncAPI 3.0.0 document the reference parser accepts", async ({ request }) => {
  const res = await request.get("/v1/asyncapi.json");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("application/json");
  const text = await res.text();
  expect(JSON.parse(text).asyncapi).toBe("3.0.0");
  const { diagnostics } = await new Parser().parse(text);
  expect(diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error).map((d) => d.message)).toEqual([]);
});
