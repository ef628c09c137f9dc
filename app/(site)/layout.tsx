import { SiteFooter } from "@/components/site/site-footer";
import { SiteHeader } from "@/components/site/site-header";

export default function SiteLayout({ children }: { children: React.ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      {/* Chromium paints a document still being parsed when the parser runs out of time (a busy machine,
          a slow phone): the cards of a half-parsed grid row, the search box before its input, which then
          move as the rest arrives. The first paint waits for the footer, the end of the page's markup
          (hoisted into <head>; other browsers ignore it and paint as before). */}
      <link rel="expect" href="#site-footer" blocking="render" />
      <SiteHeader />
      {/* At least a screen tall, so the footer starts below the fold and the page streaming in never pushes it (CLS 0). */}
      <main id="main" tabIndex={-1} className="outline-none mx-auto min-h-dvh w-full max-w-7xl flex-1 px-4 py-6">
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}
