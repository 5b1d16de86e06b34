import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import { LowDataSection } from './low-data-section.tsx';
import { LOW_DATA_STORAGE_KEY } from '../../../lib/low-data.ts';
import { withFakeConnection } from '../../../lib/fake-connection.testing.ts';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

const connection = withFakeConnection();
afterEach(cleanup);

describe('the "Use less data" setting', () => {
  const section = () =>
    render(
      <I18nextProvider i18n={i18n}>
        <LowDataSection />
      </I18nextProvider>,
    );

  it('says when it is on by itself and why, and can be turned off and on', () => {
    connection().saveData = true;
    section();
    expect(screen.getByRole('radio', { name: 'Automatic' })).toHaveProperty('checked', true);
    screen.getByText('Low-data mode is on because your browser asks to save data.');

    act(() => fireEvent.click(screen.getByRole('radio', { name: 'Off' })));
    screen.getByText('Low-data mode is off.');
    expect(localStorage.getItem(LOW_DATA_STORAGE_KEY)).toBe('off');

    act(() => fireEvent.click(screen.getByRole('radio', { name: 'On' })));
    screen.getByText('Low-data mode is on.');
  });

  it('follows a choice made in another tab', () => {
    section();
    screen.getByText('Low-data mode is off.');
    act(() => {
      localStorage.setItem(LOW_DATA_STORAGE_KEY, 'on');
      window.dispatchEvent(new StorageEvent('storage', { key: LOW_DATA_STORAGE_KEY }));
    });
    screen.getByText('Low-data mode is on.');
    act(() => {
      localStorage.removeItem(LOW_DATA_STORAGE_KEY);
      connection().report({ effectiveType: 'slow-2g' });
    });
    screen.getByText('Low-data mode is on because your connection is slow (2G).');
  });
});
