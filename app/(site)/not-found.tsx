// A 404 inside the site's layout, which already draws the header and the <main>. Without it Next puts
// the root not-found (a whole second shell, header included) into every (site) page's payload as this
// layout's fallback: rendered and sent on each view, and a doubled header if it were ever shown.
import { NotFoundBody } from "@/components/site/not-found-body";

export default function SiteNotFound() {
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center gap-3 py-20 text-center">
      <NotFoundBody />
    </div>
  );
}
