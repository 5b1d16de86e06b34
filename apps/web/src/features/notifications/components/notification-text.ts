import { useTranslation } from 'react-i18next';
import type { AppNotification } from '@kaminuza/shared';
import { dateTimeFormat } from '../../../lib/intl.ts';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * A notification worded in the reader's language from its type and data (the same texts the server uses
 * for push messages): a document is named by its kind, a deadline in the reader's own clock.
 */
export function useNotificationText() {
  const { t, i18n } = useTranslation();
  return (notification: AppNotification) => {
    const { data, type } = notification;
    const deadlineAt = text(data.deadline_at);
    const values = {
      institution: text(data.institution),
      program: text(data.program),
      sender: text(data.sender),
      reason: text(data.reason),
      // Who sent a reference (reference_received).
      referee: text(data.referee),
      // A deferral's cycle, and the application it is about as staff are told of it (ADR 053).
      cycle: text(data.cycle),
      reference: text(data.reference),
      document: data.document_type
        ? t(`documents.types.${text(data.document_type)}`, { defaultValue: text(data.document_type) })
        : '',
      deadline: deadlineAt
        ? dateTimeFormat(i18n.language, { dateStyle: 'full', timeStyle: 'short' }).format(
            new Date(Date.parse(deadlineAt) - 60_000),
          )
        : text(data.deadline),
      // How many payments differ from the providers' records (payment_discrepancies): picks the plural.
      ...(typeof data.count === 'number' ? { count: data.count } : {}),
    };
    const bodyKey = type === 'new_message' && !values.sender ? 'body_support' : 'body';
    return {
      title: t(`notifications.types.${type}.title`, { defaultValue: t('notifications.types.other.title') }),
      body: t(`notifications.types.${type}.${bodyKey}`, { ...values, defaultValue: '' }),
    };
  };
}
