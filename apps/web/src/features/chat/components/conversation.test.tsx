import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import { SUPPORT_MESSAGES, type Chat, type ChatMessage } from '@kaminuza/shared';
import { studentEndpoint } from '../api/keys.ts';
import { Conversation } from './conversation.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

const CHAT = '00000000-0000-4000-8000-0000000000c1';
const PAYLOAD = '<img src=x onerror="window.__xss=1"><b>bold</b>';

const chat = (overrides: Partial<Chat> = {}): Chat => ({
  id: CHAT,
  partner_id: '00000000-0000-4000-8000-0000000000a1',
  partner_name: 'Lake Kivu Institute',
  student_name: 'Aline Uwase',
  last_message_at: '2026-01-01T10:05:00.000Z',
  last_message: 'Welcome',
  unread: 0,
  other_read_at: null,
  created_at: '2026-01-01T10:00:00.000Z',
  ...overrides,
});

const message = (id: string, side: ChatMessage['sender_side'], body: string, minute: number): ChatMessage => ({
  id: `00000000-0000-4000-8000-00000000000${id}`,
  chat_id: CHAT,
  sender_side: side,
  sender_name: side === 'partner' ? 'Diane' : 'Aline Uwase',
  body,
  created_at: `2026-01-01T10:0${minute}:00.000Z`,
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function serve({ summary = chat(), send }: { summary?: Chat; send?: () => Response } = {}) {
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    const path = new URL(url, 'http://x').pathname;
    if (path.endsWith('/messages') && init?.method === 'POST') {
      return send ? send() : json(201, { data: message('9', 'student', 'sent', 9) });
    }
    if (path.endsWith('/messages')) {
      return json(200, {
        data: {
          messages: [message('1', 'student', PAYLOAD, 1), message('2', 'partner', 'Welcome', 5)],
          has_more: false,
        },
      });
    }
    if (path.endsWith('/read')) return json(200, { data: chat({ ...summary, unread: 0 }) });
    return json(200, { data: summary });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function renderConversation() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <Conversation endpoint={studentEndpoint(CHAT)} names={{ mine: 'You', theirs: 'Lake Kivu Institute' }} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Conversation', () => {
  it('shows messages as text, oldest first, with their senders', async () => {
    serve({ summary: chat({ other_read_at: '2026-01-01T10:02:00.000Z' }) });
    renderConversation();
    const log = within(await screen.findByRole('log', { name: 'Messages' }));
    const items = log.getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain(PAYLOAD);
    // Markup is shown as typed: no element was made from it.
    expect(items[0]!.querySelector('img, b')).toBeNull();
    log.getByRole('article', { name: 'Message from Diane · Lake Kivu Institute' });
    // The institution read the conversation after the student's message.
    expect(await log.findByText(/Seen/)).toBeTruthy();
  });

  it('marks the conversation read when it shows unread messages', async () => {
    const fetch = serve({ summary: chat({ unread: 1 }) });
    renderConversation();
    await waitFor(() =>
      expect(fetch.mock.calls.some(([url, init]) => String(url).endsWith('/read') && init?.method === 'POST')).toBe(
        true,
      ),
    );
  });

  it('refuses an empty message and explains a refused one in the spec’s words', async () => {
    serve({
      send: () =>
        json(403, {
          error: {
            status: 'PERMISSION_DENIED',
            message: SUPPORT_MESSAGES.institution_unavailable,
            reason: 'institution_unavailable',
          },
        }),
    });
    renderConversation();
    await screen.findByRole('log');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Write a message')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Your message'), { target: { value: 'Hello' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This institution is not taking messages.');
  });

  it('says "Failed to send message" with the reason otherwise', async () => {
    serve({ send: () => json(500, { error: { status: 'INTERNAL', message: 'boom' } }) });
    renderConversation();
    await screen.findByRole('log');
    fireEvent.change(screen.getByLabelText('Your message'), { target: { value: 'Hello' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect((await screen.findByRole('alert')).textContent).toBe(`Failed to send message: ${en.errors.generic}`);
    // The text is kept, so nothing typed is lost.
    expect((screen.getByLabelText('Your message') as HTMLTextAreaElement).value).toBe('Hello');
  });
});
