import { describe, expect, it } from 'vitest';
import { EMAIL_TEMPLATES, LANGUAGES } from '@kaminuza/shared';
import { deviceFromUserAgent } from '../../lib/user-agent.ts';
import { emailLanguage, renderCustom, renderTemplate } from './email.templates.ts';

const LINK = 'https://kaminuza.example/auth/verify-email?code=abc&next="/home"';
const HOSTILE_NAME = '<script>alert("x")</script> & Ada';

const data = {
  name: HOSTILE_NAME,
  link: LINK,
  code: '493817',
  expires_in_minutes: 1440,
  operating_system: 'Windows 10',
  browser_name: 'Chrome',
};

const SUBJECTS = {
  en: { welcome: 'Welcome to Kaminuza', email_verification: 'Verify your email address' },
  fr: { welcome: 'Bienvenue sur Kaminuza', email_verification: 'Vérifiez votre adresse e-mail' },
  rw: { welcome: 'Murakaza neza kuri Kaminuza', email_verification: 'Emeza aderesi imeri yawe' },
} as const;

describe('email templates', () => {
  it.each(LANGUAGES.flatMap((language) => EMAIL_TEMPLATES.map((template) => [language, template] as const)))(
    '%s %s: translated, with an escaped HTML part and a plain-text part',
    (language, template) => {
      const email = renderTemplate(template, language, data, { noReply: true });
      expect(email.subject).not.toMatch(/^email\./);
      expect(email.html).toContain(`<html lang="${language}">`);
      expect(email.html).not.toContain('<script>');
      expect(email.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Ada');
      expect(email.html).toContain(
        'href="https://kaminuza.example/auth/verify-email?code=abc&amp;next=&quot;/home&quot;"',
      );
      expect(email.text).toContain(HOSTILE_NAME);
      expect(email.text).toContain(LINK);
      expect(email.text).not.toMatch(/<(p|a|h1|table)\b/);
      for (const part of [email.subject, email.html, email.text]) expect(part).not.toMatch(/\{\{|email\.\w+\./);
    },
  );

  it.each(Object.entries(SUBJECTS))('uses the %s catalogue', (language, subjects) => {
    const lang = emailLanguage(language);
    expect(renderTemplate('welcome', lang, {}, { noReply: false }).subject).toBe(subjects.welcome);
    expect(renderTemplate('email_verification', lang, data, { noReply: true }).subject).toBe(
      subjects.email_verification,
    );
  });

  it('shows the verification code, the expiry and the device', () => {
    const { text } = renderTemplate('email_verification', 'en', data, { noReply: true });
    expect(text).toContain('Or enter this verification code: 493817');
    expect(text).toContain('This link expires in 24 hours.');
    expect(text).toContain('This request came from Chrome on Windows 10.');
    expect(text).toContain('This address does not receive replies.');
  });

  it('greets by first name in the reset email and counts minutes in the reader’s language', () => {
    const { text } = renderTemplate(
      'password_reset',
      'fr',
      { name: 'Aline', link: LINK, expires_in_minutes: 45 },
      { noReply: true },
    );
    expect(text).toMatch(/^Réinitialisez votre mot de passe\n\nBonjour Aline,/);
    expect(text).toContain('Ce lien expire dans 45 minutes.');
    expect(
      renderTemplate('password_reset', 'en', { link: LINK, expires_in_minutes: 60 }, { noReply: true }).text,
    ).toContain('This link expires in 1 hour.');
  });

  it('leaves out what it does not know: no name, no device, no button without a link', () => {
    const email = renderTemplate(
      'welcome',
      'en',
      { name: '', browser_name: '', operating_system: '' },
      { noReply: false },
    );
    expect(email.text).toMatch(/^Welcome to Kaminuza\n\nHello,\n/);
    expect(email.text).not.toContain('This request came from');
    expect(email.text).not.toContain('This address does not receive replies.');
    expect(email.html).not.toContain('<a ');
  });

  it.each([
    [
      'fr',
      'password_changed',
      'Le mot de passe de votre compte Kaminuza a été modifié',
      [
        'Quand : 26 novembre 2026 à 15:39 UTC+2',
        'Appareil : Chrome sous Windows 10',
        'Lieu approximatif : Rwanda',
        'Sécuriser mon compte: https://kaminuza.example/forgot-password',
      ],
    ],
    [
      'rw',
      'new_device_sign_in',
      'Kwinjira gushya muri konti yawe ya Kaminuza',
      [
        'Igihe: 26 novembre 2026 à 15:39 UTC+2',
        'Igikoresho: Chrome ikoresha Windows 10',
        'Aho byaturutse hafi: Rwanda',
        'Rinda konti yanjye: https://kaminuza.example/forgot-password',
      ],
    ],
  ] as const)(
    'renders the %s %s security notice with its facts and the link to secure the account',
    (language, template, subject, lines) => {
      const email = renderTemplate(
        template,
        language,
        {
          name: 'Aline',
          occurred_at: '26 novembre 2026 à 15:39 UTC+2',
          browser_name: 'Chrome',
          operating_system: 'Windows 10',
          place: 'Rwanda',
          link: 'https://kaminuza.example/forgot-password',
        },
        { noReply: true },
      );
      expect(email.subject).toBe(subject);
      for (const line of lines) expect(email.text).toContain(line);
      // The device is told once, among the facts, not again as the request's origin.
      expect(email.text).not.toMatch(/Cette demande provient|Iki cyifuzo cyaturutse/);
    },
  );

  it('leaves the place out of a security notice when the address could not be placed', () => {
    const { text } = renderTemplate(
      'new_device_sign_in',
      'en',
      { occurred_at: 'November 26, 2026 at 1:39 PM UTC', link: 'https://kaminuza.example/forgot-password' },
      { noReply: true },
    );
    expect(text).toContain('When: November 26, 2026 at 1:39 PM UTC');
    expect(text).not.toContain('Approximate place');
    expect(text).toContain('If this was you, there is nothing to do.');
  });

  it.each([
    ['en', 'Submitted on November 26, 2026'],
    ['fr', 'Envoyée le 26 novembre 2026'],
    ['rw', 'Byoherejwe ku wa 2026 Ugushyingo 26'],
  ] as const)('writes the day of a %s submission receipt as the recipient writes dates', (language, line) => {
    const { text } = renderTemplate(
      'submission_receipt',
      language,
      {
        institution_name: 'Lake Kivu Institute',
        program_name: 'BSc Environmental Science',
        campus_name: 'Rubavu',
        submitted_on: '2026-11-26',
        reference: 'KZ-ABCD-EFGH',
      },
      { noReply: true },
    );
    expect(text).toContain(line);
  });

  it('falls back to English for an unknown language', () => {
    expect(emailLanguage('de')).toBe('en');
    expect(emailLanguage(null)).toBe('en');
    expect(emailLanguage('rw')).toBe('rw');
  });

  it('escapes a custom message and keeps its paragraphs', () => {
    const email = renderCustom(
      'en',
      { subject: 'Your ticket <1>', text: 'First line\n\n<img src=x onerror=alert(1)>' },
      { noReply: false },
    );
    expect(email.subject).toBe('Your ticket <1>');
    expect(email.html).toContain('<title>Your ticket &lt;1&gt;</title>');
    expect(email.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(email.html).not.toContain('<img');
    expect(email.text).toContain('First line\n\n<img src=x onerror=alert(1)>');
  });
});

describe('deviceFromUserAgent', () => {
  it('reads the operating system and browser', () => {
    expect(
      deviceFromUserAgent(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
      ),
    ).toEqual({ operating_system: 'Windows 10', browser_name: 'Chrome' });
    expect(
      deviceFromUserAgent('Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0').browser_name,
    ).toBe('Firefox');
  });

  it('answers empty strings when the header says nothing useful', () => {
    expect(deviceFromUserAgent(undefined)).toEqual({ operating_system: '', browser_name: '' });
    expect(deviceFromUserAgent('curl/8.5.0').operating_system).toBe('');
  });
});
