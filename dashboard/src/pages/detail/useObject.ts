// Loads one object for a detail page; `reload` fetches it again after an action.
import { useCallback, useEffect, useState } from 'react';
import { api } from '../../api.ts';

export function useObject<T>(path: string): { value: T | null; error: unknown; reload: () => void } {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const load = useCallback(() => {
    api.get<T>(path).then((v) => {
      setValue(v);
      setError(null);
    }, setError);
  }, [path]);
  useEffect(load, [load]);
  return { value, error, reload: load };
}
