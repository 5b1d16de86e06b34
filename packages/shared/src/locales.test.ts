import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from './constants.ts';

type Catalogue = { [key: string]: string | Catalogue };

function read(language: string): Catalogue {
  return JSON.parse(readFileSync(new URL(`../locales/${language}.json`, import.meta.url), 'utf8')) as Catalogue;
}

/** Flattens a catalogue to dotted keys; plural variants keep their suffix (`a.b_one`, `a.b_other`). */
function flatten(catalogue: Catalogue, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(catalogue)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const PLURAL_SUFFIXES = ['_zero', '_one', '_two', '_few', '_many', '_other'];
const SOURCES = ['../../../apps/web/src', '../../../apps/api/src'].map(
  (folder) => new URL(`${folder}/`, import.meta.url),
);
// `t('a.b'` and `t("a.b"` (i18next's t, the api's getFixedT result), and `i18nKey="a.b"` of <Trans>.
const KEY_USES = [/\bt\(\s*['"]([\w-]+(?:\.[\w-]+)+)['"]/g, /\bi18nKey=\{?['"]([\w-]+(?:\.[\w-]+)+)['"]/g];

/** Every translation key named literally in the source of the web app and the api, tests left out. */
function literalKeys(): Set<string> {
  const keys = new Set<string>();
  for (const root of SOURCES) {
    for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !/\.tsx?$/.test(entry.name) || /\.test\.tsx?$/.test(entry.name)) continue;
      const text = readFileSync(join(entry.parentPath, entry.name), 'utf8');
      // A component's `t` may come from useTranslation(…, { keyPrefix }): the nearest declaration before a
      // use decides its prefix.
      const scopes = [...text.matchAll(/const \{ t \} = useTranslation\(([^)]*)\)/g)].map((match) => ({
        at: match.index,
        prefix: /keyPrefix: '([\w.]+)'/.exec(match[1]!)?.[1],
      }));
      for (const pattern of KEY_USES) {
        for (const match of text.matchAll(pattern)) {
          const prefix = scopes.findLast((scope) => scope.at < match.index)?.prefix;
          keys.add(prefix && match[0].startsWith('t(') ? `${prefix}.${match[1]!}` : match[1]!);
        }
      }
    }
  }
  return keys;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
const en = flatten(read('en'));

describe('translation catalogues', () => {
  it('English has every key the web app and the api name literally', () => {
    const used = literalKeys();
    // A scan that finds nothing would pass vacuously: the code names hundreds of keys.
    expect(used.size).toBeGreaterThan(100);
    const missing = [...used].filter(
      (key) => !en.has(key) && !PLURAL_SUFFIXES.some((suffix) => en.has(`${key}${suffix}`)),
    );
    expect(missing).toEqual([]);
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every English key, non-empty', (language) => {
    const other = flatten(read(language));
    const missing = [...en.keys()].filter((key) => !other.get(key)?.trim());
    expect(missing).toEqual([]);
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has no key English lacks', (language) => {
    // Plural forms differ by language (fr has `_many`): a form counts when English has the same plural key.
    const pluralBase = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '');
    const enPlurals = new Set([...en.keys()].filter((key) => pluralBase(key) !== key).map(pluralBase));
    const extra = [...flatten(read(language)).keys()].filter(
      (key) => !en.has(key) && !(pluralBase(key) !== key && enPlurals.has(pluralBase(key))),
    );
    expect(extra).toEqual([]);
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s keeps the interpolation placeholders of English', (language) => {
    const other = flatten(read(language));
    const wrong = [...en].filter(
      ([key, text]) => other.has(key) && placeholders(other.get(key) ?? '').join() !== placeholders(text).join(),
    );
    expect(wrong.map(([key]) => key)).toEqual([]);
  });

  it.each(LANGUAGES)('%s gives every plural key exactly the forms the language needs', (language) => {
    // i18next picks a suffix with Intl.PluralRules; a language Intl does not know (rw) falls back to the
    // root rules, one and other, which is what i18next then asks for.
    const needed = new Intl.PluralRules(language).resolvedOptions().pluralCategories.toSorted();
    const forms = new Map<string, string[]>();
    for (const key of flatten(read(language)).keys()) {
      const plural = /^(.*)_(zero|one|two|few|many|other)$/.exec(key);
      if (plural) forms.set(plural[1]!, [...(forms.get(plural[1]!) ?? []), plural[2]!]);
    }
    expect(forms.size).toBeGreaterThan(0);
    const wrong = [...forms].filter(([, have]) => have.toSorted().join() !== needed.join());
    expect(wrong).toEqual([]);
  });
});

describe('message catalogues', () => {
  it('English carries the spec texts of every validation and account message exactly', async () => {
    const {
      ANSWER_MESSAGES,
      APPLICATION_MESSAGES,
      PAYMENT_MESSAGES,
      AUTH_MESSAGES,
      GENERIC_MESSAGES,
      LOCKOUT_MESSAGES,
      PARTNER_MESSAGES,
      PROFILE_MESSAGES,
      SETTINGS_MESSAGES,
      SETUP_MESSAGES,
      SUPPORT_MESSAGES,
      UPLOAD_MESSAGES,
      VALIDATION_MESSAGES,
    } = await import('./messages.ts');
    const catalogue = read('en') as {
      auth: { login: Catalogue };
      errors: Catalogue;
      validation: Catalogue;
      auth_errors: Catalogue;
      upload: { errors: Catalogue };
      partner: { errors: Catalogue };
      profile: { errors: Catalogue };
      setup: { errors: Catalogue };
      support: { errors: Catalogue };
      application_form: { errors: Catalogue };
      applications: { errors: Catalogue };
      payments: { errors: Catalogue };
      settings: { errors: Catalogue };
    };
    expect(catalogue.errors).toEqual(GENERIC_MESSAGES);
    expect(catalogue.validation).toEqual(VALIDATION_MESSAGES);
    expect(catalogue.auth_errors).toEqual(AUTH_MESSAGES);
    expect(catalogue.auth.login).toMatchObject(LOCKOUT_MESSAGES);
    expect(catalogue.upload.errors).toEqual(UPLOAD_MESSAGES);
    expect(catalogue.partner.errors).toEqual(PARTNER_MESSAGES);
    expect(catalogue.profile.errors).toEqual(PROFILE_MESSAGES);
    expect(catalogue.setup.errors).toEqual(SETUP_MESSAGES);
    expect(catalogue.support.errors).toEqual(SUPPORT_MESSAGES);
    expect(catalogue.application_form.errors).toEqual(ANSWER_MESSAGES);
    expect(catalogue.applications.errors).toEqual(APPLICATION_MESSAGES);
    expect(catalogue.payments.errors).toEqual(PAYMENT_MESSAGES);
    expect(catalogue.settings.errors).toEqual(SETTINGS_MESSAGES);
  });
});

describe('lockedOutMessage', () => {
  it('words the wait in whole minutes with the English plural', async () => {
    const { lockedOutMessage } = await import('./messages.ts');
    expect(lockedOutMessage(1)).toBe('Too many attempts. Please try again in 1 minute.');
    expect(lockedOutMessage(15)).toBe('Too many attempts. Please try again in 15 minutes.');
  });
});
