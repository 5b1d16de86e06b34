import type { ComponentType } from 'react';
import { FeeWaiverSlotContext, type FeeWaiverSlotProps } from '../components/fee-waiver-slot.tsx';
import { FeeWaiverPanel } from '../features/waivers/components/fee-waiver-panel.tsx';

const feeWaiverPanel = (props: FeeWaiverSlotProps) => <FeeWaiverPanel {...props} />;

/** An applying screen with what other features show inside it: the fee waiver panel beside the payment. */
export function withApplicationSlots(Screen: ComponentType): ComponentType {
  return function WithApplicationSlots() {
    return (
      <FeeWaiverSlotContext.Provider value={feeWaiverPanel}>
        <Screen />
      </FeeWaiverSlotContext.Provider>
    );
  };
}
