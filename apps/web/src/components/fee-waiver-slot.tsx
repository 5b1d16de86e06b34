import { createContext, useContext, type ReactNode } from 'react';
import type { ApplicationDocument } from '@kaminuza/shared';

/** What the application screen hands the fee waiver panel it shows beside the payment. */
export interface FeeWaiverSlotProps {
  applicationId: string;
  documents: readonly ApplicationDocument[];
  paid?: boolean;
  onContinue?: () => void;
}

/**
 * Where the application screen shows the fee waiver panel: app/ provides the panel (features do not import
 * one another), and a screen rendered without it simply shows none.
 */
export const FeeWaiverSlotContext = createContext<((props: FeeWaiverSlotProps) => ReactNode) | null>(null);

export function FeeWaiverSlot(props: FeeWaiverSlotProps) {
  const render = useContext(FeeWaiverSlotContext);
  return render ? render(props) : null;
}
