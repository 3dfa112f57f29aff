// An in-app link: a real href (open in a new tab works) that navigates without a reload.
import type { ReactNode } from 'react';
import { BASE, navigate } from '../router.ts';

export function Link({ to, children, ariaLabel }: { to: string; children: ReactNode; ariaLabel?: string }) {
  return (
    <a
      href={to ? `${BASE}/${to}` : BASE}
      aria-label={ariaLabel}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </a>
  );
}
