"use client";
// Marks the document once React has hydrated (browser tests and bench:web wait for html[data-hydrated]
// before interacting or measuring). No provider here: only the market page's live view needs react-query.
import { useEffect } from "react";

export function HydratedMark() {
  useEffect(() => {
    // A market page marks itself once its live view is in (live-swap.tsx).
    if (!document.querySelector('[data-live="pending"]')) document.documentElement.dataset.hydrated = "true";
  }, []);
  return null;
}
