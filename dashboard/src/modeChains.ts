// The chains of the dashboard's mode (GET /v1/merchants/me/accepted-chains lists every chain the
// deployment configures for it), for the lists' Network filter: shown only when the mode has several.
import { useEffect, useState } from 'react';
import { api, getMode } from './api.ts';
import type { components } from './api/generated/openapi.ts';

type ModeChain = components['schemas']['AcceptedChains']['chains'][number];

/** The mode's chains in configuration order; empty until read (or when the read fails: no filter then). */
export function useModeChains(): ModeChain[] {
  const [chains, setChains] = useState<ModeChain[]>([]);
  const mode = getMode();
  useEffect(() => {
    let current = true;
    api.get<components['schemas']['AcceptedChains']>('/v1/merchants/me/accepted-chains').then(
      (answer) => current && setChains(answer.chains),
      () => current && setChains([]),
    );
    return () => {
      current = false;
    };
  }, [mode]);
  return chains;
}
