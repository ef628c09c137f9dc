// Exact decimal arithmetic for book quantities: PostgreSQL numerics arrive as strings and are
// handled as scaled bigints, so netting and the 0.05 dust rule never suffer float rounding.

/** Parses a non-negative decimal string into an integer count of 10^-scale units (rounding half up). */
export function toUnits(value: string, scale: number): bigint {
  const m = /^(\d*)(?:\.(\d*))?$/.exec(value.trim());
  if (!m) throw new Error(`not a decimal: ${value}`);
  const int = m[1] || "0";
  const frac = m[2] ?? "";
  const kept = (frac + "0".repeat(scale)).slice(0, scale);
  let units = BigInt(int + kept);
  if ((frac[scale] ?? "0") >= "5") units += 1n;
  return units;
}

/** Formats units of 10^-scale as a fixed decimal string ("0.550", "12.00"). */
export function fromUnits(units: bigint, scale: number): string {
  const s = units.toString().padStart(scale + 1, "0");
  return scale === 0 ? s : `${s.slice(0, -scale)}.${s.slice(-scale)}`;
}

/** Rounds a decimal string to `scale` places and prints it with exactly that many. */
export function fixed(value: string, scale: number): string {
  return fromUnits(toUnits(value, scale), scale);
}

/** A decimal string without its trailing zeros, but with at least `minScale` decimals ("20.500000" → "20.50"). */
export function trimDecimal(value: string, minScale: number): string {
  const [int, frac = ""] = value.split(".");
  return `${int}.${frac.replace(/0+$/, "").padEnd(minScale, "0")}`;
}
