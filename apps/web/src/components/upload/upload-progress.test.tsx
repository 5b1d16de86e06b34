import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import fr from '@kaminuza/shared/locales/fr.json';
import rw from '@kaminuza/shared/locales/rw.json';
import type { UploadPhase } from '../../lib/upload.ts';
import { UploadProgress } from './upload-progress.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

function renderAt(phase: UploadPhase) {
  const actions = { onPause: vi.fn(), onResume: vi.fn(), onCancel: vi.fn() };
  render(
    <I18nextProvider i18n={i18n}>
      <UploadProgress name="passport.pdf" progress={{ sent: 600, total: 1000 }} phase={phase} {...actions} />
    </I18nextProvider>,
  );
  return actions;
}

const buttons = () => screen.getAllByRole('button').map((button) => button.getAttribute('aria-label'));

afterEach(cleanup);

describe('UploadProgress', () => {
  it('while sending: a labelled progress bar with its value, Pause and Cancel', () => {
    const actions = renderAt('uploading');
    const bar = screen.getByRole('progressbar', { name: 'Upload progress of passport.pdf' });
    expect(bar.getAttribute('value')).toBe('60');
    expect(bar.getAttribute('aria-valuetext')).toBe('Uploading… 60%');
    expect(buttons()).toEqual(['Pause the upload of passport.pdf', 'Cancel the upload of passport.pdf']);
    fireEvent.click(screen.getByRole('button', { name: 'Pause the upload of passport.pdf' }));
    expect(actions.onPause).toHaveBeenCalledOnce();
  });

  it('paused: Resume', () => {
    const actions = renderAt('paused');
    screen.getByText('Paused at 60%.');
    expect(buttons()).toEqual(['Resume the upload of passport.pdf', 'Cancel the upload of passport.pdf']);
    fireEvent.click(screen.getByRole('button', { name: 'Resume the upload of passport.pdf' }));
    expect(actions.onResume).toHaveBeenCalledOnce();
  });

  it('offline: says it carries on by itself, nothing to press but Cancel', () => {
    renderAt('offline');
    screen.getByText(/No connection: 60% sent\. The upload carries on by itself/);
    expect(buttons()).toEqual(['Cancel the upload of passport.pdf']);
  });

  it('stopped after its retries: Try again', () => {
    const actions = renderAt('interrupted');
    screen.getByText(/The upload stopped at 60%/);
    fireEvent.click(screen.getByRole('button', { name: 'Try again to upload passport.pdf' }));
    expect(actions.onResume).toHaveBeenCalledOnce();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel the upload of passport.pdf' }));
    expect(actions.onCancel).toHaveBeenCalledOnce();
  });

  it.each([
    ['en', en],
    ['fr', fr],
    ['rw', rw],
  ])('names each control differently in %s, so none is taken for another', (_language, catalogue) => {
    const { upload } = catalogue;
    const names = [
      upload.pause_label,
      upload.resume_label,
      upload.retry_label,
      upload.cancel_label,
      upload.unfinished.continue_label,
      upload.unfinished.discard_label,
    ];
    const words = [upload.pause, upload.resume, upload.retry, upload.cancel, upload.unfinished.discard];
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(words).size).toBe(words.length);
  });
});
