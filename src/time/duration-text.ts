// Time left as people read it, the one formatter of every countdown (hosted pages and dashboard). The two
// largest units that matter, in words: `379 days 1 hour`, `3 hours 5 min`, `14 min 3 s`, `42 s`. Never
// minutes alone (a session open for a year read as `545749:48`). Dependency-free: the browser bundles import it.

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A non-negative duration in milliseconds, rounded down to the second: `379 days 1 hour`, `14 min 3 s`. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const secs = seconds % 60;
  if (days > 0) return hours > 0 ? `${plural(days, 'day')} ${plural(hours, 'hour')}` : plural(days, 'day');
  if (hours > 0) return minutes > 0 ? `${plural(hours, 'hour')} ${minutes} min` : plural(hours, 'hour');
  if (minutes > 0) return secs > 0 ? `${minutes} min ${secs} s` : `${minutes} min`;
  return `${secs} s`;
}

/** `Expires in 379 days 1 hour` until `expiresAt` (ISO 8601), then `Expired`. */
export function expiryCountdown(expiresAt: string, now = Date.now()): string {
  const left = Date.parse(expiresAt) - now;
  return left >= 1000 ? `Expires in ${formatDuration(left)}` : 'Expired';
}
