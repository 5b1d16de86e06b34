import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../../components/form/field.tsx';
import { errorMessageKey } from '../../../lib/error-messages.ts';

type SaveState = { status: 'idle' } | { status: 'saving' } | { status: 'saved' } | { status: 'failed'; error: unknown };

/** Tracks the save of a choice that already applies on this device, for the line that reports it. */
export function useSaveState() {
  const [state, setState] = useState<SaveState>({ status: 'idle' });
  const track = useCallback((save: Promise<void>) => {
    setState({ status: 'saving' });
    save.then(
      () => setState({ status: 'saved' }),
      (error: unknown) => setState({ status: 'failed', error }),
    );
  }, []);
  return [state, track] as const;
}

/** "Saved to your account", or why it was not (the choice still holds on this device). */
export function SaveStatus({ state }: { state: SaveState }) {
  const { t } = useTranslation();
  if (state.status === 'failed') {
    return (
      <FormAlert>
        {t('settings.save_failed')} {t(errorMessageKey(state.error))}
      </FormAlert>
    );
  }
  return (
    <p role="status" className="min-h-5 text-sm text-muted">
      {state.status === 'saving' ? t('settings.saving') : state.status === 'saved' ? t('settings.saved') : ''}
    </p>
  );
}
