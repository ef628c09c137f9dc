// /docs sits outside the (site) layout so the reference can use the full width, but keeps the site
// header: the way back to the markets. Only the header is shared, never the renderer's chunks.
import type { CSSProperties } from "react";
import { SITE_HEADER_HEIGHT, SiteHeader } from "@/components/site/site-header";

// Scalar pins its sidebar and section headers this far down, below the sticky site header.
const belowHeader = { "--scalar-custom-header-height": SITE_HEADER_HEIGHT } as CSSProperties;

export default function DocsLayout({ children }: { children: React.ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col" style={belowHeader}>
      <SiteHeader />
      {children}
    </div>
  );
}
