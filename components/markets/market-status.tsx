import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { MarketStatus } from "@/lib/markets/constants";

const STATUS: Record<MarketStatus, { label: string; tone: BadgeTone }> = {
  PENDING: { label: "Not yet trading", tone: "amber" },
  ACTIVE: { label: "Active", tone: "green" },
  LOCKED: { label: "Trading closed", tone: "violet" },
  RESOLVED: { label: "Resolved", tone: "blue" },
  CANCELLED: { label: "Cancelled", tone: "red" },
};

export function StatusBadge({ status }: { status: MarketStatus }) {
  const s = STATUS[status];
  return (
    <Badge tone={s.tone} data-testid="status-badge">
      {s.label}
    </Badge>
  );
}

export function MirroredMark({ venue }: { venue: string }) {
  return (
    <Badge tone="neutral" title={`Prices and book mirrored from ${venue}`}>
      <svg aria-hidden="true" viewBox="0 0 16 16" className="size-3" fill="none" stroke="currentColor" strokeWidth="1.6">
        <path d="M2 8h9M8 4l4 4-4 4" />
        <path d="M14 3v10" />
      </svg>
      mirrored from {venue}
    </Badge>
  );
}

export function VerifiedMark() {
  return (
    <span title="Verified market" className="inline-flex text-sky-600 dark:text-sky-400">
      <svg viewBox="0 0 20 20" className="size-4" fill="currentColor" role="img" aria-label="Verified">
        <path
          fillRule="evenodd"
          d="M10 1.5l2.3 1.7 2.9-.1.9 2.7 2.3 1.8-.9 2.7.9 2.7-2.3 1.8-.9 2.7-2.9-.1L10 18.5l-2.3-1.7-2.9.1-.9-2.7-2.3-1.8.9-2.7-.9-2.7 2.3-1.8.9-2.7 2.9.1L10 1.5zm3.7 6.2a.8.8 0 00-1.2-1l-3.4 4-1.6-1.5a.8.8 0 10-1.1 1.1l2.2 2.1a.8.8 0 001.2-.1l3.9-4.6z"
          clipRule="evenodd"
        />
      </svg>
    </span>
  );
}

export function FeaturedMark() {
  return (
    <Badge tone="amber">
      <svg aria-hidden="true" viewBox="0 0 20 20" className="size-3" fill="currentColor">
        <path d="M10 1.8l2.5 5.2 5.7.7-4.2 3.9 1.1 5.6L10 14.5l-5.1 2.7 1.1-5.6L1.8 7.7 7.5 7z" />
      </svg>
      Featured
    </Badge>
  );
}
