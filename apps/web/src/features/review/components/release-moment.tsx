import { useTranslation } from 'react-i18next';
import { TextField } from '../../../components/form/field.tsx';

/**
 * The day and time decisions are released together (issue 26), on the institution's clock: the
 * release job sends them all at that minute.
 */
export function ReleaseMomentField({
  value,
  onChange,
  timezone,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  timezone: string;
  error?: string | undefined;
}) {
  const { t } = useTranslation();
  return (
    <TextField
      label={t('review.release_at.label')}
      hint={t('review.release_at.hint', { timezone })}
      type="datetime-local"
      step={60}
      value={value}
      error={error}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}
