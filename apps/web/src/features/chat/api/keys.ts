/**
 * Query keys of conversations with institutions. Everything lives under ['messaging'], which the
 * realtime client invalidates on every event and after a reconnect: these screens need no socket code.
 */
export const chatKeys = {
  /** The student's conversations. */
  studentList: () => ['messaging', 'chats'] as const,
  /** The student's conversation with one institution (started on first visit). */
  withPartner: (partnerId: string) => ['messaging', 'chat', 'partner', partnerId] as const,
  /** An institution's inbox. */
  inbox: (partnerId: string) => ['messaging', 'chats', 'partner', partnerId] as const,
  /** One conversation: its summary and, beneath it, its messages. */
  chat: (chatId: string) => ['messaging', 'chat', chatId] as const,
  messages: (chatId: string) => ['messaging', 'chat', chatId, 'messages'] as const,
};

/**
 * Where one conversation is reached: the student's own path or the institution's. Both sides share the
 * conversation screen and differ only in this.
 */
export interface ChatEndpoint {
  chatId: string;
  /** The api path of the conversation, e.g. `/students/me/chats/{id}`. */
  base: string;
  /** Who is reading: their own messages sit on the right. */
  side: 'student' | 'partner';
}

export const studentEndpoint = (chatId: string): ChatEndpoint => ({
  chatId,
  base: `/students/me/chats/${encodeURIComponent(chatId)}`,
  side: 'student',
});

export const partnerEndpoint = (partnerId: string, chatId: string): ChatEndpoint => ({
  chatId,
  base: `/partners/${encodeURIComponent(partnerId)}/chats/${encodeURIComponent(chatId)}`,
  side: 'partner',
});
