/** Text and attribute values escaped for SVG/HTML: labels come from data files (chain ids, model names). */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A number for an SVG coordinate: two decimals are sub-pixel and keep the markup small. */
export function coord(n: number): string {
  return String(Math.round(n * 100) / 100);
}

export function formatTick(value: number, percent: boolean): string {
  if (percent) return `${Math.round(value * 100)}%`;
  if (Number.isInteger(value)) return String(value);
  return String(Math.round(value * 1000) / 1000);
}
