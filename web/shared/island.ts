// Reads the server's values for a hosted page: the page's one JSON island
// (src/hosted-pages/json-island.ts writes it). Never executed, only parsed.
export function readIsland<T>(id: string): T | null {
  const element = document.getElementById(id);
  if (!element?.textContent) return null;
  return JSON.parse(element.textContent) as T;
}
