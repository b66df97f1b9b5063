/**
 * CSV as R's read.csv and pandas read it (RFC 4180): a header row, fields quoted when they hold a
 * comma, quote or line break, quotes doubled; null is an empty field. Patches span lines, so
 * quoting matters.
 */
export function toCsv<T extends object>(columns: readonly (keyof T & string)[], rows: readonly T[]): string {
  const field = (value: unknown): string => {
    if (value === null || value === undefined) return '';
    const text = typeof value === 'string' ? value : String(value);
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return [columns.join(','), ...rows.map((row) => columns.map((c) => field(row[c])).join(','))].join('\r\n') + '\r\n';
}
