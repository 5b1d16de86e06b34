import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE, LANGUAGES, type Language } from '@kaminuza/shared';

function supported(tag: string | undefined): Language | null {
  const primary = tag?.trim().toLowerCase().split('-')[0];
  return LANGUAGES.find((language) => language === primary) ?? null;
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const pair of header?.split(';') ?? []) {
    const [key, ...value] = pair.split('=');
    if (key?.trim() === name) {
      try {
        return decodeURIComponent(value.join('=').trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** The best supported language of an Accept-Language header, honouring q-values (q=0 means "not this"). */
function fromAcceptLanguage(header: string | undefined): Language | null {
  const ranked = (header ?? '')
    .split(',')
    .map((part) => {
      const [tag, ...params] = part.split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag, q: q ? Number(q.slice(2)) : 1 };
    })
    .filter(({ q }) => q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of ranked) {
    const language = supported(tag);
    if (language) return language;
  }
  return null;
}

/** The stored choice (the i18next cookie) wins over the browser's preference, then the default. */
export function chooseLanguage(headers: { cookie?: string; 'accept-language'?: string }): Language {
  return (
    supported(cookieValue(headers.cookie, LANGUAGE_COOKIE)) ??
    fromAcceptLanguage(headers['accept-language']) ??
    DEFAULT_LANGUAGE
  );
}
