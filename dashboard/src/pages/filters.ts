// Date filters: a day picked in the viewer's calendar, as the instants the list APIs take
// (createdFrom inclusive at the day's start, createdTo exclusive at the next day's start).

export function dayStart(day: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const date = new Date(`${day}T00:00:00`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export function dayEnd(day: string): string | undefined {
  const start = dayStart(day);
  if (!start) return undefined;
  const next = new Date(start);
  next.setDate(next.getDate() + 1);
  return next.toISOString();
}

/**
 * The metadata box (`order=A-1`) as the list APIs' filter: `{ 'metadata[order]': 'A-1' }`, exact. Empty or
 * without `=`: no filter. The key is sent as typed; the API refuses a bad one (brackets, over 40 characters).
 */
export function metadataFilter(text: string): Record<`metadata[${string}]`, string> {
  const separator = text.indexOf('=');
  const key = separator > 0 ? text.slice(0, separator).trim() : '';
  if (!key) return {};
  return { [`metadata[${key}]` as const]: text.slice(separator + 1).trim() };
}
