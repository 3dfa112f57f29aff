// What every page shares: the merchant, its live-mode eligibility and the
// chosen mode. Eligibility is always read in test mode (it decides whether
// live mode may be chosen at all).
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { getMode, request, setMode as storeMode, type Mode } from './api.ts';
import type { Eligibility, Merchant } from './types.ts';

type SessionValue = {
  merchant: Merchant | null;
  eligibility: Eligibility | null;
  mode: Mode;
  setMode: (mode: Mode) => void;
  refresh: () => Promise<void>;
  error: unknown;
};

const SessionContext = createContext<SessionValue | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [merchant, setMerchant] = useState<Merchant | null>(null);
  const [eligibility, setEligibility] = useState<Eligibility | null>(null);
  const [mode, setModeState] = useState<Mode>(getMode());
  const [error, setError] = useState<unknown>(null);

  const refresh = useCallback(async () => {
    try {
      const [me, eligible] = await Promise.all([
        request<Merchant>('GET', '/v1/merchants/me', { mode: 'test' }),
        request<Eligibility>('GET', '/v1/merchants/me/live-mode-eligibility', { mode: 'test' }),
      ]);
      setMerchant(me);
      setEligibility(eligible);
      setError(null);
      if (!eligible.eligible && getMode() === 'live') {
        storeMode('test');
        setModeState('test');
      }
    } catch (e) {
      setError(e);
    }
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const setMode = (next: Mode) => {
    if (next === 'live' && !eligibility?.eligible) return;
    storeMode(next);
    setModeState(next);
  };

  return <SessionContext.Provider value={{ merchant, eligibility, mode, setMode, refresh, error }}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}
