// CSV files of list rows (RFC 4180: comma-separated, CRLF, fields quoted when needed).
// A cell that a spreadsheet would run as a formula (=, +, -, @ first) is prefixed with '.

export type CsvColumn<T> = { header: string; value: (row: T) => string | number | null | undefined };

function cell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv<T>(rows: T[], columns: CsvColumn<T>[]): string {
  const lines = [columns.map((c) => cell(c.header)), ...rows.map((row) => columns.map((c) => cell(c.value(row))))];
  return `${lines.map((line) => line.join(',')).join('\r\n')}\r\n`;
}

/** "12500000" (base units) -> "12.5": a plain decimal a spreadsheet reads as a number. */
export function decimalAmount(base: string | null | undefined, decimals = 6): string {
  if (!base || !/^-?\d+$/.test(base)) return '';
  const negative = base.startsWith('-');
  const digits = (negative ? base.slice(1) : base).padStart(decimals + 1, '0');
  const whole = digits.slice(0, -decimals).replace(/^0+(?=\d)/, '');
  const fraction = digits.slice(-decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}
