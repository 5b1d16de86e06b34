import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, type Language } from '../constants.ts';
import { smsEncoding, smsText } from './encoding.ts';
import { renderSms, SMS_MAX_SEGMENTS, SmsTooLongError, type SmsTranslate } from './render.ts';
import { SMS_TEMPLATES, SMS_TEXTS, smsTextOf, type SmsData, type SmsTemplate, type SmsValues } from './templates.ts';

type Catalogue = { [key: string]: string | Catalogue };
const catalogues = Object.fromEntries(
  LANGUAGES.map((language) => [
    language,
    JSON.parse(readFileSync(new URL(`../../locales/${language}.json`, import.meta.url), 'utf8')) as Catalogue,
  ]),
) as Record<Language, Catalogue>;

// The server's way (apps/api email.templates.ts): one i18next instance, a fixed t per language.
const i18n = i18next.createInstance();
void i18n.init({
  resources: Object.fromEntries(LANGUAGES.map((language) => [language, { translation: catalogues[language] }])),
  lng: 'en',
  fallbackLng: false,
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});
const t = (language: Language): SmsTranslate => i18n.getFixedT(language);

const LINK = 'https://kaminuza.example/s/AB12CD';
const REFERENCE = 'KZ-7Q4M-X2PA';

/** Values as long as real ones get: the longest names in the catalogue, a full date. */
const LONG: Record<Language, SmsValues> = {
  en: {
    code: '482913',
    reference: REFERENCE,
    institution: 'Jomo Kenyatta University of Agriculture and Technology',
    program: 'Bachelor of Science in Agricultural Engineering and Mechanisation',
    amount: 'RWF 25,000',
    deadline: '30 November 2026',
    link: LINK,
  },
  fr: {
    code: '482913',
    reference: REFERENCE,
    institution: "Université Catholique de l'Afrique Centrale — Campus de Yaoundé",
    program: 'Licence en Génie Électrique, Électronique et Télécommunications',
    amount: 'XAF 150 000',
    deadline: '30 novembre 2026',
    link: LINK,
  },
  rw: {
    code: '482913',
    reference: REFERENCE,
    institution: 'University of Rwanda – College of Agriculture, Animal Sciences and Veterinary Medicine',
    program: 'Bachelor of Science in Agricultural Engineering and Mechanisation',
    amount: 'RWF 25,000',
    deadline: '30 Ugushyingo 2026',
    link: LINK,
  },
};

/** Everyday values: a short name and program, a short date. */
const ORDINARY: Record<Language, SmsValues> = {
  en: { ...LONG.en, institution: 'University of Nairobi', program: 'BSc Nursing', deadline: '30 Nov' },
  fr: { ...LONG.fr, institution: 'Université de Douala', program: 'Licence en droit', deadline: '30 novembre' },
  rw: { ...LONG.rw, institution: 'University of Rwanda', program: 'Medicine', deadline: '30 Ugushyingo' },
};

/** Each template's data taken from a set of values (a new message twice: from an institution, from support). */
function cases(values: SmsValues): [string, SmsTemplate, SmsData[SmsTemplate]][] {
  const { code, reference, institution, program, amount, deadline, link } = values;
  const data: { [T in SmsTemplate]: SmsData[T] } = {
    phone_code: { code },
    submission_receipt: { institution, program, reference, link },
    payment_confirmed: { institution, amount, reference, link },
    decision_released: { institution, program, link },
    offer_reply_reminder: { institution, program, deadline, link },
    draft_reminder: { institution, program, deadline, link },
    new_message: { institution, link },
  };
  return [
    ...SMS_TEMPLATES.map((template): [string, SmsTemplate, SmsData[SmsTemplate]] => [
      template,
      template,
      data[template],
    ]),
    ['new_message (support)', 'new_message', { link }],
  ];
}

function table(values: Record<Language, SmsValues>) {
  return LANGUAGES.flatMap((language) =>
    cases(values[language]).map(([name, template, data]) => {
      const sms = renderSms(template, language, data, t(language));
      const { fields } = smsTextOf(template, data);
      return { name, language, fields, ...sms, units: smsEncoding(sms.text).units };
    }),
  );
}

const layout = (rows: ReturnType<typeof table>) =>
  rows
    .map((row) =>
      [row.name.padEnd(22), row.language, row.encoding, `${String(row.units).padStart(3)} units`, row.segments].join(
        ' | ',
      ),
    )
    .join('\n');

describe('renderSms: every template in every language fits', () => {
  const long = table(LONG);
  const ordinary = table(ORDINARY);

  it.each(long.map((row) => [`${row.name} in ${row.language}: ${row.encoding}, ${row.segments}`, row] as const))(
    'with long names, %s message(s)',
    (_, row) => {
      expect(row.segments).toBeLessThanOrEqual(SMS_MAX_SEGMENTS);
      expect(row.encoding).toBe('GSM-7');
    },
  );

  it.each(ordinary.map((row) => [`${row.name} in ${row.language}: ${row.encoding}, ${row.segments}`, row] as const))(
    'with ordinary names, %s message',
    (_, row) => {
      expect(row.segments).toBe(1);
      expect(row.encoding).toBe('GSM-7');
    },
  );

  it('shows every value whole, even the long names, and names Kaminuza once', () => {
    for (const [values, rows] of [
      [LONG, long],
      [ORDINARY, ordinary],
    ] as const) {
      for (const row of rows) {
        for (const field of row.fields) expect(row.text).toContain(smsText(values[row.language][field]));
        expect(row.text.match(/Kaminuza/g)).toHaveLength(1);
      }
    }
  });

  it('the table of encodings and message counts', () => {
    expect(`long names\n${layout(long)}\n\nordinary names\n${layout(ordinary)}`).toMatchInlineSnapshot(`
      "long names
      phone_code             | en | GSM-7 |  72 units | 1
      submission_receipt     | en | GSM-7 | 228 units | 2
      payment_confirmed      | en | GSM-7 | 167 units | 2
      decision_released      | en | GSM-7 | 223 units | 2
      offer_reply_reminder   | en | GSM-7 | 221 units | 2
      draft_reminder         | en | GSM-7 | 246 units | 2
      new_message            | en | GSM-7 | 136 units | 1
      new_message (support)  | en | GSM-7 |  85 units | 1
      phone_code             | fr | GSM-7 |  74 units | 1
      submission_receipt     | fr | GSM-7 | 236 units | 2
      payment_confirmed      | fr | GSM-7 | 180 units | 2
      decision_released      | fr | GSM-7 | 233 units | 2
      offer_reply_reminder   | fr | GSM-7 | 236 units | 2
      draft_reminder         | fr | GSM-7 | 246 units | 2
      new_message            | fr | GSM-7 | 152 units | 1
      new_message (support)  | fr | GSM-7 | 105 units | 1
      phone_code             | rw | GSM-7 |  61 units | 1
      submission_receipt     | rw | GSM-7 | 269 units | 2
      payment_confirmed      | rw | GSM-7 | 207 units | 2
      decision_released      | rw | GSM-7 | 254 units | 2
      offer_reply_reminder   | rw | GSM-7 | 275 units | 2
      draft_reminder         | rw | GSM-7 | 282 units | 2
      new_message            | rw | GSM-7 | 176 units | 2
      new_message (support)  | rw | GSM-7 |  92 units | 1

      ordinary names
      phone_code             | en | GSM-7 |  72 units | 1
      submission_receipt     | en | GSM-7 | 141 units | 1
      payment_confirmed      | en | GSM-7 | 134 units | 1
      decision_released      | en | GSM-7 | 136 units | 1
      offer_reply_reminder   | en | GSM-7 | 124 units | 1
      draft_reminder         | en | GSM-7 | 149 units | 1
      new_message            | en | GSM-7 | 103 units | 1
      new_message (support)  | en | GSM-7 |  85 units | 1
      phone_code             | fr | GSM-7 |  74 units | 1
      submission_receipt     | fr | GSM-7 | 146 units | 1
      payment_confirmed      | fr | GSM-7 | 137 units | 1
      decision_released      | fr | GSM-7 | 143 units | 1
      offer_reply_reminder   | fr | GSM-7 | 141 units | 1
      draft_reminder         | fr | GSM-7 | 151 units | 1
      new_message            | fr | GSM-7 | 109 units | 1
      new_message (support)  | fr | GSM-7 | 105 units | 1
      phone_code             | rw | GSM-7 |  61 units | 1
      submission_receipt     | rw | GSM-7 | 146 units | 1
      payment_confirmed      | rw | GSM-7 | 141 units | 1
      decision_released      | rw | GSM-7 | 131 units | 1
      offer_reply_reminder   | rw | GSM-7 | 147 units | 1
      draft_reminder         | rw | GSM-7 | 154 units | 1
      new_message            | rw | GSM-7 | 110 units | 1
      new_message (support)  | rw | GSM-7 |  92 units | 1"
    `);
  });
});

describe('renderSms: names made to fit', () => {
  // ë and ô are not GSM-7: as given, the whole text is UCS-2, 134 units in two parts.
  const institution = 'Université Félix Houphouët-Boigny — Unité de Formation et de Recherche des Sciences Économiques';
  const program = 'Master professionnel en Contrôle de gestion et Audit des organisations';

  it('keeps a letter outside GSM-7 when the UCS-2 text fits', () => {
    const sms = renderSms('new_message', 'en', { institution: "Université de Côte d'Ivoire", link: LINK }, t('en'));
    expect(sms).toEqual({
      text: "Kaminuza: you have a new message from Université de Côte d'Ivoire. Read it: https://kaminuza.example/s/AB12CD",
      encoding: 'UCS-2',
      segments: 2,
    });
  });

  it('writes the names with plain letters before shortening them', () => {
    const sms = renderSms('decision_released', 'en', { ...ORDINARY.en, program: 'Contrôle de gestion' }, t('en'));
    expect(sms).toEqual({
      text: 'Kaminuza: University of Nairobi has a decision on your application for Controle de gestion. Sign in to see it: https://kaminuza.example/s/AB12CD',
      encoding: 'GSM-7',
      segments: 1,
    });
  });

  it.each(LANGUAGES)('in %s, keeps the rest whole whatever the names', (language) => {
    const data = { institution, program, deadline: LONG[language].deadline, link: LINK };
    const sms = renderSms('draft_reminder', language, data, t(language));
    expect(sms).toMatchObject({ encoding: 'GSM-7', segments: 2 });
    expect(sms.text).toContain('Université Félix Houphouet-Boigny - Unité de Formation');
    expect(sms.text).toContain(LINK);
    expect(sms.text).toContain(LONG[language].deadline);
  });

  it('then shortens the longest name with an ellipsis', () => {
    const data = {
      institution: `${institution} et de Gestion, Campus d'Abidjan-Cocody`,
      program: `${program} publiques et privées`,
      reference: REFERENCE,
      link: LINK,
    };
    const sms = renderSms('submission_receipt', 'en', data, t('en'));
    expect(sms).toMatchObject({ encoding: 'GSM-7', segments: 2 });
    expect(sms.text).toMatchInlineSnapshot(
      `"Kaminuza: your application for Master professionnel en Controle de gestion et Audit des organisations publiques et privées at Université Félix Houphouet-Boigny - Unité de Formation et de Recherche des Sciences Économiques et de G... was submitted. Reference: KZ-7Q4M-X2PA. https://kaminuza.example/s/AB12CD"`,
    );
  });

  it('shortens names in a script GSM-7 lacks, staying in UCS-2', () => {
    const data = {
      institution: 'አዲስ አበባ ዩኒቨርሲቲ የተፈጥሮና ቀመራዊ ሳይንስ ኮሌጅ የሂሳብ ትምህርት ክፍል እና የስታቲስቲክስ ትምህርት ክፍል',
      link: LINK,
    };
    const sms = renderSms('new_message', 'en', data, t('en'));
    expect(sms).toMatchObject({ encoding: 'UCS-2', segments: 2 });
    expect(sms.text).toMatchInlineSnapshot(
      `"Kaminuza: you have a new message from አዲስ አበባ ዩኒቨርሲቲ የተፈጥሮና ቀመራዊ ሳይንስ ኮሌጅ የሂሳብ ትምህርት ክፍል... Read it: https://kaminuza.example/s/AB12CD"`,
    );
  });

  it('fits any Latin-script names in every template and language, keeping the other values whole', () => {
    // Letters of the names staff type: GSM-7 ones, accents GSM-7 lacks, typographic punctuation.
    const letters = fc.constantFrom(
      ...'abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ -.,&()éèàùçêôâëïîûÉÈÊÇ’“”–—…',
    );
    const name = fc.string({ unit: letters, minLength: 1, maxLength: 200 });
    fc.assert(
      fc.property(
        fc.constantFrom(...LANGUAGES),
        fc.constantFrom(...SMS_TEMPLATES),
        name,
        name,
        (language, template, institution, program) => {
          const values = { ...LONG[language], institution, program };
          const [, , data] = cases(values).find(([, candidate]) => candidate === template)!;
          const sms = renderSms(template, language, data, t(language));
          expect(sms.segments).toBeLessThanOrEqual(SMS_MAX_SEGMENTS);
          for (const field of smsTextOf(template, data).fields)
            if (field !== 'institution' && field !== 'program') expect(sms.text).toContain(values[field]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('cannot fit two names written wholly outside GSM-7 in the longer texts: it throws', () => {
    // UCS-2 leaves 134 units; this text and its reference and link take 107 before the two names.
    const data = {
      institution: 'አዲስ አበባ ዩኒቨርሲቲ የተፈጥሮና ቀመራዊ ሳይንስ ኮሌጅ',
      program: 'የግብርና ምህንድስና የሳይንስ ባችለር ዲግሪ',
      reference: REFERENCE,
      link: LINK,
    };
    expect(() => renderSms('submission_receipt', 'en', data, t('en'))).toThrow(SmsTooLongError);
  });

  it('normalises typographic punctuation in the names', () => {
    const sms = renderSms('new_message', 'fr', { institution: 'Université de l’Atlantique', link: LINK }, t('fr'));
    expect(sms.text).toBe(
      "Kaminuza : vous avez un nouveau message de Université de l'Atlantique. Lisez-le : https://kaminuza.example/s/AB12CD",
    );
    expect(sms.encoding).toBe('GSM-7');
  });

  it('throws rather than send a text that cannot fit', () => {
    const wordy: SmsTranslate = (_key, values) => `Kaminuza ${'ô'.repeat(140)} ${String(values['link'])}`;
    expect(() => renderSms('new_message', 'en', { link: LINK }, wordy)).toThrow(/takes 3 messages/);
  });

  it('throws on a text missing from the catalogue', () => {
    expect(() => renderSms('phone_code', 'en', { code: '1' }, (key) => key)).toThrow(/No en text for sms.phone_code/);
  });
});

describe('the sms catalogue group', () => {
  const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!).sort();
  const texts = Object.values(SMS_TEXTS).flat();

  it.each(LANGUAGES)('in %s, has exactly the texts of the templates', (language) => {
    const group = catalogues[language]['sms'] as Record<string, string>;
    expect(Object.keys(group).sort()).toEqual(texts.map(({ key }) => key.replace(/^sms\./, '')).sort());
  });

  it.each(LANGUAGES)('in %s, every text uses exactly the values its template provides', (language) => {
    const group = catalogues[language]['sms'] as Record<string, string>;
    for (const { key, fields } of texts)
      expect(placeholders(group[key.replace(/^sms\./, '')] ?? ''), key).toEqual([...fields].sort());
  });
});
