import { useEffect, useState } from 'react';

/** `value` once it has stopped changing for `delayMs`, so a search runs per pause, not per keystroke. */
export function useDebounced<T>(value: T, delayMs = 250): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
