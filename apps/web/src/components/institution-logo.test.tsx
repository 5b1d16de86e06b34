import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import { InstitutionLogo } from './institution-logo.tsx';
import { setLowDataChoice } from '../lib/low-data.ts';
import { withFakeConnection } from '../lib/fake-connection.testing.ts';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

const connection = withFakeConnection();
afterEach(cleanup);

describe('InstitutionLogo', () => {
  const logo = () => (
    <I18nextProvider i18n={i18n}>
      <InstitutionLogo src="/logo.png" name="Kigali College" className="size-11" letterClassName="text-lg" />
    </I18nextProvider>
  );

  it('shows the logo when data is not being saved', () => {
    const { container } = render(logo());
    expect(container.querySelector('img')?.getAttribute('src')).toBe('/logo.png');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('in low-data mode loads no image until "Show image" is pressed, then shows it named and focused', () => {
    setLowDataChoice('on');
    const { container } = render(logo());
    expect(container.querySelector('img')).toBeNull();
    const button = screen.getByRole('button', { name: 'Show image: logo of Kigali College' });
    expect(button.textContent).toBe('Show image');
    act(() => fireEvent.click(button));
    const image = screen.getByRole('img', { name: 'Logo of Kigali College' });
    expect(image.getAttribute('src')).toBe('/logo.png');
    expect(document.activeElement).toBe(image);
  });

  it('hides the logo as soon as the browser starts saving data', () => {
    const { container } = render(logo());
    expect(container.querySelector('img')).not.toBeNull();
    act(() => connection().report({ effectiveType: '2g' }));
    expect(container.querySelector('img')).toBeNull();
    screen.getByRole('button', { name: /Show image/ });
  });

  it('shows the first letter of the name, with no button, when there is no logo', () => {
    const { container } = render(
      <I18nextProvider i18n={i18n}>
        <InstitutionLogo src={null} name="Kigali College" className="size-11" letterClassName="text-lg" />
      </I18nextProvider>,
    );
    expect(container.textContent).toBe('K');
    expect(screen.queryByRole('button')).toBeNull();
  });
});
