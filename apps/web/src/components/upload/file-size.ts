import type { TFunction } from 'i18next';
import { numberFormat } from '../../lib/intl.ts';

/** A file size in the visitor's language: KB below 1 MB, MB with one decimal above. */
export function formatFileSize(t: TFunction, bytes: number, language: string): string {
  const number = (value: number, digits: number) =>
    numberFormat(language, { maximumFractionDigits: digits }).format(value);
  if (bytes < 1024 * 1024) return t('upload.size.kb', { value: number(Math.max(1, Math.round(bytes / 1024)), 0) });
  return t('upload.size.mb', { value: number(bytes / (1024 * 1024), 1) });
}
