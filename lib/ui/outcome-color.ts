// An outcome's colour where the page draws it (the all-outcomes chart's lines, the Activity panel's dots).

/** Colours for outcomes without one of their own (the seed and imports may leave it null). */
export const FALLBACK_COLORS = ["#4f46e5", "#059669", "#d97706", "#db2777", "#0891b2", "#7c3aed", "#65a30d", "#dc2626"];

/** An outcome's colour: its own, else one of the palette by its index. */
export const outcomeColor = (o: { color: string | null; index: number }) => o.color || FALLBACK_COLORS[o.index % FALLBACK_COLORS.length];
