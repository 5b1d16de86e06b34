import { describe, expect, it } from 'vitest';
import { SUPPORT_MESSAGES } from '@kaminuza/shared';
import { ApiError } from '../../lib/api-client.ts';
import { sendErrorText } from './message-thread.tsx';

// The catalogue key itself stands for its text, so what is chosen shows without a language loaded.
const t = ((key: string) => key) as unknown as Parameters<typeof sendErrorText>[0];

describe('why a message was not sent', () => {
  it('is told by the reason the api gives, not by its wording', () => {
    const closed = new ApiError('ABORTED', 'The ticket was closed.', 409, undefined, 'ticket_closed');
    expect(sendErrorText(t, closed)).toBe('support.errors.ticket_closed');
    const down = new ApiError('UNAVAILABLE', 'Reworded', 503, undefined, 'support_database_failed');
    expect(sendErrorText(t, down)).toBe('support.errors.database_failed');
  });

  it('without a reason, is the general failure with its cause, even for the same text', () => {
    const plain = new ApiError('ABORTED', SUPPORT_MESSAGES.ticket_closed, 409);
    expect(sendErrorText(t, plain)).toBe('support.errors.send_failed');
  });
});
