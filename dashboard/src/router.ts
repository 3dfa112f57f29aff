// A few lines of client-side routing under /dashboard: the path after the
// prefix names the page; links push history entries.
import { useEffect, useState } from 'react';

export const BASE = '/dashboard';

export function currentPage(): string {
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : '';
  return path.replace(/^\/+|\/+$/g, '');
}

export function navigate(page: string): void {
  const target = page ? `${BASE}/${page}` : BASE;
  if (location.pathname !== target) history.pushState(null, '', target);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

export function usePage(): string {
  const [page, setPage] = useState(currentPage);
  useEffect(() => {
    const update = () => setPage(currentPage());
    window.addEventListener('popstate', update);
    return () => window.removeEventListener('popstate', update);
  }, []);
  return page;
}

/** The page path of one object: "payments/ps_…". */
export const detailPath = (section: string, id: string): string => `${section}/${encodeURIComponent(id)}`;
