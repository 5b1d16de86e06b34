import { expect, type APIRequestContext } from '@playwright/test';

interface MailSummary {
  id: string;
  to: string;
  subject: string;
}

/** The newest email to `to` in the development mailbox, once it has arrived. */
export async function latestEmail(request: APIRequestContext, to: string, subject: RegExp): Promise<{ text: string }> {
  let found: MailSummary | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get('/api/v1/dev/mailbox');
        const { data } = (await response.json()) as { data: MailSummary[] };
        found = data.find((mail) => mail.to.toLowerCase().includes(to.toLowerCase()) && subject.test(mail.subject));
        return found !== undefined;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  const response = await request.get(`/api/v1/dev/mailbox/${found!.id}`);
  return ((await response.json()) as { data: { text: string } }).data;
}

/** How many emails to `to` with a matching subject the development mailbox holds now. */
export async function emailCount(request: APIRequestContext, to: string, subject: RegExp): Promise<number> {
  const response = await request.get('/api/v1/dev/mailbox');
  const { data } = (await response.json()) as { data: MailSummary[] };
  return data.filter((mail) => mail.to.toLowerCase().includes(to.toLowerCase()) && subject.test(mail.subject)).length;
}

/** The first link to this server in an email's text. */
export function linkIn(text: string, path: string): string {
  const match = text.match(new RegExp(`https?://[^\\s)]+${path.replace(/\//g, '\\/')}[^\\s)]*`));
  if (!match) throw new Error(`no ${path} link in: ${text}`);
  const url = new URL(match[0]);
  return url.pathname + url.search;
}
