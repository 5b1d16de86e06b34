import { useEffect } from 'react';
import { useMatches } from 'react-router';
import { useTranslation } from 'react-i18next';

/** Route `handle` naming the translation keys of a page's title and description. */
export interface PageHandle {
  title: string;
  description?: string;
}

const DEFAULT_META = { title: 'meta.default.title', description: 'meta.default.description' };

function isPageHandle(handle: unknown): handle is PageHandle {
  return typeof handle === 'object' && handle !== null && typeof (handle as PageHandle).title === 'string';
}

/** The deepest route's title and description keys. */
export function pageMeta(handles: unknown[]): { title: string; description: string } {
  const handle = handles.filter(isPageHandle).at(-1);
  return handle ? { title: handle.title, description: handle.description ?? DEFAULT_META.description } : DEFAULT_META;
}

/** Keeps document.title in step with the route and the language. */
export function useDocumentTitle(): void {
  const matches = useMatches();
  const { t, i18n } = useTranslation();
  const { title } = pageMeta(matches.map((m) => m.handle));
  const text = t(title);
  useEffect(() => {
    document.title = text;
  }, [text, i18n.language]);
}
