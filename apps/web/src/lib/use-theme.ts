import { useSyncExternalStore } from 'react';
import type { Theme } from '@kaminuza/shared/constants';
import { readTheme, setTheme, subscribeTheme } from './theme.ts';

export function useTheme(): [Theme, (theme: Theme) => void] {
  const theme = useSyncExternalStore(subscribeTheme, readTheme, () => 'system' as const);
  return [theme, setTheme];
}
