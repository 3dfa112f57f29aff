// The one way server values reach a hosted page's script: a JSON island,
// `<script type="application/json" id="...">{...}</script>`, which the browser
// never executes and the script reads with JSON.parse (web/shared/island.ts).
// `<`, `>` and `&` are written as \u escapes, so no value can close the element
// (`</script>`) or open a comment (`<!--`); U+2028 and U+2029 too, for old parsers.
const UNSAFE = /[<>&\u2028\u2029]/g;

/** JSON text safe inside a <script> element: JSON.parse reads the same value back. */
export function escapeJsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The island element; `id` is a fixed name of ours (never a server value), so it needs no escaping. */
export function jsonIsland(id: string, value: unknown): string {
  if (!/^[a-z][a-z0-9-]*$/.test(id)) throw new Error(`not an island id: ${id}`);
  return `<script type="application/json" id="${id}">${escapeJsonForScript(value)}</script>`;
}
