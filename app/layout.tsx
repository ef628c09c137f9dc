import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = { title: "Markets", description: "Prediction-market data" };

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>
        {children}
        <footer className="border-t border-neutral-200 px-4 py-6 text-sm text-neutral-600">
          {/* A plain link, not next/link: prefetching /docs would pull the reference renderer into every page. */}
          <a href="/docs" className="underline hover:text-neutral-900">
            API reference
          </a>
        </footer>
      </body>
    </html>
  );
}
