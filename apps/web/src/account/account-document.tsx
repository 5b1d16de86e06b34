import { StrictMode, useEffect, useMemo, useState, type ComponentType } from 'react';
import type { Language } from '@kaminuza/shared/constants';
import { PublicFrame } from '../app/layouts/public-frame.tsx';
import { OfflineBanner } from '../components/offline-banner.tsx';
import { SessionProvider } from './session.tsx';
import { TextsProvider, translate, type Catalogue } from './react-i18next.tsx';

export interface AccountDocumentProps {
  Page: ComponentType;
  meta: string;
  language: Language;
  catalogue: Catalogue;
  /** Another language's texts, when the visitor switches (the server's render never does). */
  loadCatalogue?: (language: Language) => Promise<Catalogue>;
  /** Called once a switch has applied, to keep the choice for the next pages. */
  onLanguageChanged?: (language: Language) => void;
  /** The language the visitor chose, when the page was rendered in another: switched to once hydrated. */
  preferred?: Language | null;
}

/** An entry page as a whole document body: the same frame and page the app renders at that route. */
export function AccountDocument({
  Page,
  meta,
  language,
  catalogue,
  loadCatalogue,
  onLanguageChanged,
  preferred,
}: AccountDocumentProps) {
  const [current, setCurrent] = useState({ language, catalogue });
  const texts = useMemo(
    () => ({
      ...current,
      changeLanguage: async (next: Language) => {
        if (!loadCatalogue) return;
        const loaded = await loadCatalogue(next);
        setCurrent({ language: next, catalogue: loaded });
        onLanguageChanged?.(next);
      },
    }),
    [current, loadCatalogue, onLanguageChanged],
  );
  const title = translate(current.language, current.catalogue, `meta.${meta}.title`);
  useEffect(() => {
    document.title = title;
    document.documentElement.lang = current.language;
  }, [title, current.language]);
  useEffect(() => {
    if (preferred && preferred !== language) void texts.changeLanguage(preferred);
    // Once, after hydrating: later choices go through the switcher.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <StrictMode>
      <TextsProvider texts={texts}>
        <SessionProvider>
          <OfflineBanner />
          <PublicFrame>
            <Page />
          </PublicFrame>
        </SessionProvider>
      </TextsProvider>
    </StrictMode>
  );
}
