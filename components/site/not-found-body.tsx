// The 404's words and its way back, inside whichever shell shows it (app/not-found.tsx, app/(site)/not-found.tsx).
import Link from "next/link";
import { buttonClass } from "@/components/ui/button";

export function NotFoundBody() {
  return (
    <>
      <p className="text-sm font-semibold text-indigo-700 dark:text-indigo-300">404</p>
      <h1 className="text-2xl font-semibold tracking-tight">Page not found</h1>
      <p className="text-zinc-600 dark:text-zinc-400">Nothing lives at this address. The link may be mistyped, or the page has moved.</p>
      <Link href="/" className={buttonClass("primary")}>
        Browse all markets
      </Link>
    </>
  );
}
