import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { isHtmlDocumentRequest, renderingDocument, setDocumentStatus } from "./document-status";

function response() {
  const req = new IncomingMessage(new Socket());
  req.method = "GET";
  return new ServerResponse(req);
}

describe("isHtmlDocumentRequest", () => {
  it("takes a browser's load of a page, not the client router's payloads (it follows a non-200 with a full load)", () => {
    expect(isHtmlDocumentRequest({ url: "/markets/x", headers: {} })).toBe(true);
    expect(isHtmlDocumentRequest({ url: "/markets/x?outcome=y", headers: { accept: "text/html" } })).toBe(true);
    expect(isHtmlDocumentRequest({ url: "/markets/x", headers: { rsc: "1" } })).toBe(false);
    expect(isHtmlDocumentRequest({ url: "/markets/x", headers: { "next-router-state-tree": "%5B%5D" } })).toBe(false);
    expect(isHtmlDocumentRequest({ url: "/markets/x", headers: { "next-router-prefetch": "1" } })).toBe(false);
    expect(isHtmlDocumentRequest({ url: "/markets/x?_rsc=abc", headers: {} })).toBe(false);
  });
});

describe("setDocumentStatus", () => {
  it("sets the status of the document rendered around it, across awaits", async () => {
    const res = response();
    await renderingDocument(res, async () => {
      await new Promise((r) => setTimeout(r, 1));
      setDocumentStatus(404);
    });
    expect(res.statusCode).toBe(404);
  });

  it("does nothing outside a document's render (a client router's payload stays 200), nor once the head was sent", async () => {
    const res = response();
    setDocumentStatus(404);
    expect(res.statusCode).toBe(200);
    const other = response();
    await Promise.all([renderingDocument(res, async () => undefined), renderingDocument(other, async () => setDocumentStatus(410))]);
    expect(res.statusCode).toBe(200);
    expect(other.statusCode).toBe(410);
    const sent = response();
    Object.defineProperty(sent, "headersSent", { value: true });
    renderingDocument(sent, () => setDocumentStatus(404));
    expect(sent.statusCode).toBe(200);
  });
});
