// Tailwind 4 reads its theme from CSS (app/globals.css, @theme); this file is kept for editor tooling
// and is loaded there with @config.
import type { Config } from "tailwindcss";

export default {
  content: ["./app/**/*.{ts,tsx}", "./components/**/*.{ts,tsx}", "./lib/**/*.{ts,tsx}"],
  darkMode: "media",
} satisfies Config;
