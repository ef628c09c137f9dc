import type { Metadata, Viewport } from "next";
import { HydratedMark } from "./hydrated";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Markets – prediction-market prices, books and history", template: "%s · Markets" },
  description: "Browse prediction markets: live probabilities, order books and price history.",
};

export const viewport: Viewport = {
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#fafafa" },
    { media: "(prefers-color-scheme: dark)", color: "#09090b" },
  ],
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-dvh font-sans">
        {children}
        <HydratedMark />
      </body>
    </html>
  );
}
