"use client";
// Copies a text (the embed code) to the clipboard and says so; the text stays selectable beside it without JavaScript.
import { useState } from "react";

export function CopyButton({ text, label, className }: { text: string; label: string; className?: string }) {
  const [done, setDone] = useState(false);
  return (
    <button
      type="button"
      className={className}
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(
          () => {
            setDone(true);
            setTimeout(() => setDone(false), 2000);
          },
          () => setDone(false),
        );
      }}
    >
      {label}
      <span role="status" className="sr-only">
        {done ? "Copied" : ""}
      </span>
      <span aria-hidden="true" className={done ? "" : "invisible"}>
        ✓
      </span>
    </button>
  );
}
