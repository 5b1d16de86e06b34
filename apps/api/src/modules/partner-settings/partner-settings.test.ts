import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  PAYMENT_MESSAGES,
  defaultPartnerSettings,
  SETUP_MESSAGES,
  THEME_FONTS,
  type PartnerAdmissionsSettingsUpdate,
  type StoredPartnerSettings,
} from '@kaminuza/shared';
import { cycles, partnerApiKeys } from '../../db/schema/index.ts';
import { useTestApp } from '../../test/app.ts';
import { expectAccess, signInAs, type TestAccount } from '../../test/auth.ts';

let admin: TestAccount;
let partnerId: string;

const testApp = useTestApp();

beforeAll(async () => {
  admin = await signInAs(testApp.app, 'staff');
  partnerId = admin.partnerId!;
});

const base = (id = partnerId) => `/api/v1/partners/${id}`;
const errorOf = (response: { json(): unknown }) =>
  (response.json() as { error: { status: string; message: string; details?: { path: string; message: string }[] } })
    .error;

async function settings(caller: TestAccount = admin): Promise<StoredPartnerSettings> {
  const response = await testApp.app.inject({ method: 'GET', url: `${base()}/settings`, headers: caller.headers });
  expect(response.statusCode).toBe(200);
  return (response.json() as { data: StoredPartnerSettings }).data;
}

const put = (part: string, payload: object, caller: TestAccount = admin, id = partnerId) =>
  testApp.app.inject({ method: 'PUT', url: `${base(id)}/settings/${part}`, headers: caller.headers, payload });

const general = (overrides: object = {}) => ({
  default_language: 'fr',
  supported_languages: ['en', 'fr'],
  default_currency: 'RWF',
  timezone: 'Africa/Kigali',
  current_cycle_id: null,
  ...overrides,
});

function admissions(overrides: Partial<PartnerAdmissionsSettingsUpdate> = {}): PartnerAdmissionsSettingsUpdate {
  return {
    auto_accept_enabled: true,
    auto_accept_threshold: 85,
    auto_reject_enabled: true,
    auto_reject_threshold: 40,
    application_fee: 50,
    application_fee_currency: 'RWF',
    admission_letter: {
      template: 'Dear {student_name}, welcome to {program_name}.',
      signature_name: 'Diane Mukeshimana',
      signature_title: 'Registrar',
      signature_image: 'https://cdn.example.com/signature.png',
    },
    custom_stages: [
      { id: 'interview', name: 'Interview' },
      { id: 'documents', name: 'Document check' },
    ],
    rubric: [{ id: 'overall', name: 'Overall', weight: 1 }],
    blind_review: false,
    ...overrides,
  };
}

async function cycleOf(id: string) {
  const [row] = await testApp.db
    .insert(cycles)
    .values({ partner_id: id, name: 'Intake 2027', opens_on: '2027-01-01', closes_on: '2027-03-31' })
    .returning({ id: cycles.id });
  return row!.id;
}

describe('reading the settings', () => {
  it('answers the defaults to any member of an institution that has no settings row yet', async () => {
    const member = await signInAs(testApp.app, 'staff', { partnerId, permissions: [] });
    expect(await settings(member)).toEqual(defaultPartnerSettings());
  });

  it('is for members of the institution only', async () => {
    await expectAccess(
      testApp.app,
      { method: 'GET', url: `${base()}/settings` },
      { anonymous: 401, student: 403, admin: 403, staff: 404 },
    );
  });
});

describe('general settings', () => {
  it('saves languages, currency, time zone and a cycle of the institution', async () => {
    const cycleId = await cycleOf(partnerId);
    const response = await put('general', general({ current_cycle_id: cycleId, supported_languages: ['fr', 'en'] }));
    expect(response.statusCode).toBe(200);
    const saved = (await settings()).general;
    // Kept in the product's order, whatever order they were sent in.
    expect(saved).toEqual({ ...general({ current_cycle_id: cycleId }), supported_languages: ['en', 'fr'] });
  });

  it.each([
    ['a default language that is not supported', { default_language: 'rw' }, SETUP_MESSAGES.languages_invalid],
    ['no supported language', { supported_languages: [] }, SETUP_MESSAGES.languages_invalid],
    ['an unknown time zone', { timezone: 'Mars/Olympus' }, SETUP_MESSAGES.timezone_invalid],
    ['a currency that is not a code', { default_currency: 'dollars' }, SETUP_MESSAGES.currency_invalid],
  ])('refuses %s with 400 and changes nothing', async (_case, overrides, message) => {
    const before = await settings();
    const response = await put('general', general(overrides));
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).details?.map((d) => d.message)).toContain(message);
    expect(await settings()).toEqual(before);
  });

  it("refuses another institution's cycle with 404", async () => {
    const other = await signInAs(testApp.app, 'staff');
    const before = await settings();
    const response = await put('general', general({ current_cycle_id: await cycleOf(other.partnerId!) }));
    expect(response.statusCode).toBe(404);
    expect(errorOf(response).message).toBe(SETUP_MESSAGES.cycle_not_found);
    expect(await settings()).toEqual(before);
  });
});

describe('current cycle', () => {
  it('is set and cleared by a member managing programs, keeping the other general settings', async () => {
    const programsManager = await signInAs(testApp.app, 'staff', { partnerId, permissions: ['manage_programs'] });
    const before = (await settings()).general;
    const cycleId = await cycleOf(partnerId);
    const set = await put('current-cycle', { cycle_id: cycleId }, programsManager);
    expect(set.statusCode).toBe(200);
    expect((await settings()).general).toEqual({ ...before, current_cycle_id: cycleId });
    expect((await put('current-cycle', { cycle_id: null }, programsManager)).statusCode).toBe(200);
    expect((await settings()).general.current_cycle_id).toBeNull();
  });

  it("refuses other members, and another institution's cycle", async () => {
    const reviewer = await signInAs(testApp.app, 'staff', { partnerId, permissions: ['review_applications'] });
    expect((await put('current-cycle', { cycle_id: null }, reviewer)).statusCode).toBe(403);
    const other = await signInAs(testApp.app, 'staff');
    expect((await put('current-cycle', { cycle_id: await cycleOf(other.partnerId!) })).statusCode).toBe(404);
    expect((await put('current-cycle', { cycle_id: 'not-an-id' })).statusCode).toBe(400);
  });
});

describe('theme', () => {
  const theme = () => {
    const value = defaultPartnerSettings().theme;
    return {
      ...value,
      colors: { ...value.colors, primary: '#7c2d12' },
      typography: { font_family: THEME_FONTS.serif, base_size_px: 18 },
    };
  };

  it('replaces the theme', async () => {
    expect((await put('theme', theme())).statusCode).toBe(200);
    expect((await settings()).theme).toEqual(theme());
  });

  it.each([
    ['a colour that is not #rrggbb', { colors: { ...theme().colors, primary: 'red' } }, SETUP_MESSAGES.color_invalid],
    [
      'a font that is not one of the safe stacks',
      { typography: { font_family: "'Comic Sans', url(https://evil.example/font)", base_size_px: 16 } },
      SETUP_MESSAGES.font_invalid,
    ],
    [
      'a base size out of bounds',
      { typography: { font_family: THEME_FONTS.system, base_size_px: 80 } },
      SETUP_MESSAGES.value_out_of_range,
    ],
  ])('refuses %s', async (_case, overrides, message) => {
    const before = await settings();
    const response = await put('theme', { ...theme(), ...overrides });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).details?.map((d) => d.message)).toContain(message);
    expect(await settings()).toEqual(before);
  });
});

describe('admissions settings', () => {
  it('saves them, numbering the stages in list order', async () => {
    const sent = admissions({
      custom_stages: [
        { id: 'documents', name: 'Document check' },
        { id: 'interview', name: 'Interview' },
      ],
      rubric: [
        { id: 'academic', name: 'Academic record', weight: 3 },
        { id: 'statement', name: 'Personal statement', weight: 1 },
      ],
      blind_review: true,
    });
    expect((await put('admissions', sent)).statusCode).toBe(200);
    expect((await settings()).admissions).toEqual({
      ...sent,
      custom_stages: [
        { id: 'documents', name: 'Document check', order: 0 },
        { id: 'interview', name: 'Interview', order: 1 },
      ],
      // The single fee of a client that sends no options is the one option, by card.
      application_fees: [{ currency: 'RWF', amount: 50, channels: ['card'] }],
      // No bank account unless the institution adds one (bank slips need it).
      bank_accounts: [],
      // Automatic decisions follow the review score unless the institution chooses entry requirements.
      auto_decision_basis: 'review_score',
    });
  });

  it('saves a fee per currency with its ways to pay; the spec’s single fee is the first option’s', async () => {
    const sent = admissions({
      application_fee: undefined,
      application_fee_currency: undefined,
      application_fees: [
        { currency: 'USD', amount: 10_050, channels: ['card'] },
        { currency: 'RWF', amount: 130_000, channels: ['mtn_momo', 'airtel_money', 'card', 'mtn_momo'] },
        { currency: 'KES', amount: 1_300_000, channels: ['mpesa', 'airtel_money'] },
      ],
    });
    expect((await put('admissions', sent)).statusCode).toBe(200);
    const saved = (await settings()).admissions;
    expect(saved.application_fees).toEqual([
      { currency: 'USD', amount: 10_050, channels: ['card'] },
      { currency: 'RWF', amount: 130_000, channels: ['mtn_momo', 'airtel_money', 'card'] },
      { currency: 'KES', amount: 1_300_000, channels: ['mpesa', 'airtel_money'] },
    ]);
    expect(saved).toMatchObject({ application_fee: 100.5, application_fee_currency: 'USD' });

    expect((await put('admissions', { ...sent, application_fees: [] })).statusCode).toBe(200);
    expect((await settings()).admissions).toMatchObject({ application_fees: [], application_fee: 0 });
  });

  it.each([
    [
      'a currency listed twice',
      [
        { currency: 'RWF', amount: 1000, channels: ['card'] },
        { currency: 'RWF', amount: 2000, channels: ['mtn_momo'] },
      ],
      PAYMENT_MESSAGES.fee_currencies_unique,
    ],
    [
      'a network that does not collect in the currency',
      [{ currency: 'USD', amount: 1000, channels: ['mpesa'] }],
      PAYMENT_MESSAGES.channel_not_accepted,
    ],
    ['no way to pay', [{ currency: 'USD', amount: 1000, channels: [] }], PAYMENT_MESSAGES.fee_channels_required],
    [
      'an amount that is not whole minor units',
      [{ currency: 'USD', amount: 10.5, channels: ['card'] }],
      PAYMENT_MESSAGES.fee_amount_invalid,
    ],
    ['an amount of 0', [{ currency: 'USD', amount: 0, channels: ['card'] }], PAYMENT_MESSAGES.fee_amount_invalid],
    ['a way to pay that does not exist', [{ currency: 'USD', amount: 100, channels: ['cash'] }], undefined],
  ])('refuses fees with %s: 400, nothing changes', async (_case, fees, message) => {
    const before = await settings();
    const response = await put('admissions', { ...admissions(), application_fees: fees as never });
    expect(response.statusCode).toBe(400);
    if (message) expect(errorOf(response).details?.map((d) => d.message)).toContain(message);
    expect(await settings()).toEqual(before);
  });

  it('accepts crossed thresholds when only one automatic decision is on', async () => {
    const response = await put(
      'admissions',
      admissions({ auto_reject_enabled: false, auto_accept_threshold: 20, auto_reject_threshold: 60 }),
    );
    expect(response.statusCode).toBe(200);
  });

  it.each([
    [
      'reject at or above accept',
      { auto_accept_threshold: 50, auto_reject_threshold: 50 },
      SETUP_MESSAGES.threshold_order,
    ],
    ['a threshold above 100', { auto_accept_threshold: 101 }, SETUP_MESSAGES.threshold_invalid],
    ['a negative fee', { application_fee: -1 }, SETUP_MESSAGES.amount_invalid],
    ['a fee currency that is not a code', { application_fee_currency: 'usd' }, SETUP_MESSAGES.currency_invalid],
    [
      'a signature image that is not an https address',
      { admission_letter: { ...admissions().admission_letter, signature_image: 'http://example.com/s.png' } },
      SETUP_MESSAGES.signature_image_invalid,
    ],
    [
      'a letter template that is too long',
      { admission_letter: { ...admissions().admission_letter, template: 'x'.repeat(10_001) } },
      SETUP_MESSAGES.text_too_long,
    ],
    [
      'two stages with one name',
      {
        custom_stages: [
          { id: 'a', name: 'Interview' },
          { id: 'b', name: 'interview' },
        ],
      },
      SETUP_MESSAGES.stage_names_unique,
    ],
    [
      'two stages with one id',
      {
        custom_stages: [
          { id: 'a', name: 'Interview' },
          { id: 'a', name: 'Test' },
        ],
      },
      SETUP_MESSAGES.stage_ids_unique,
    ],
  ])('refuses %s with 400 and changes nothing', async (_case, overrides, message) => {
    const before = await settings();
    const response = await put('admissions', admissions(overrides));
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).details?.map((d) => d.message)).toContain(message);
    expect(await settings()).toEqual(before);
  });
});

describe('who may change the settings', () => {
  const payloads = (): [string, object][] => [
    ['general', general()],
    ['theme', defaultPartnerSettings().theme],
    ['admissions', admissions()],
    ['current-cycle', { cycle_id: null }],
  ];

  it('refuses every change to a member without manage_settings, who can still read them', async () => {
    const member = await signInAs(testApp.app, 'staff', {
      partnerId,
      permissions: ['manage_forms', 'manage_api_keys'],
    });
    const before = await settings();
    for (const [part, payload] of payloads()) {
      expect((await put(part, payload, member)).statusCode, part).toBe(403);
    }
    expect(await settings(member)).toEqual(before);
  });

  it('refuses staff of another institution (404), students and admins (403), visitors (401)', async () => {
    for (const [part, payload] of payloads()) {
      await expectAccess(
        testApp.app,
        { method: 'PUT', url: `${base()}/settings/${part}`, payload },
        { anonymous: 401, student: 403, admin: 403, staff: 404 },
      );
    }
  });
});

describe('API keys', () => {
  const keys = (caller: TestAccount = admin, id = partnerId) =>
    testApp.app.inject({ method: 'GET', url: `${base(id)}/api-keys`, headers: caller.headers });
  const create = (payload: object, caller: TestAccount = admin) =>
    testApp.app.inject({ method: 'POST', url: `${base()}/api-keys`, headers: caller.headers, payload });

  it('shows a new key once and stores only its hash', async () => {
    const response = await create({ name: 'Student information system', scopes: ['submissions:read'] });
    expect(response.statusCode).toBe(201);
    const { key, api_key } = (response.json() as { data: { key: string; api_key: { id: string; prefix: string } } })
      .data;
    expect(key).toMatch(/^kz_[a-z0-9]{8}_[A-Za-z0-9_-]{43}$/);
    expect(key.startsWith(`${api_key.prefix}_`)).toBe(true);

    const [stored] = await testApp.db.select().from(partnerApiKeys).where(eq(partnerApiKeys.id, api_key.id));
    expect(JSON.stringify(stored)).not.toContain(key.slice(api_key.prefix.length + 1));
    expect(stored!.key_hash).toMatch(/^[0-9a-f]{64}$/);

    const listed = await keys();
    expect(listed.statusCode).toBe(200);
    expect(listed.body).not.toContain(key);
    expect(listed.body).not.toContain(stored!.key_hash);
    expect((listed.json() as { data: { id: string }[] }).data[0]?.id).toBe(api_key.id);
  });

  it('lists keys newest first', async () => {
    await create({ name: 'First', scopes: ['programs:read'] });
    await create({ name: 'Second', scopes: ['programs:read'] });
    const names = (await keys()).json() as { data: { name: string }[] };
    expect(names.data.slice(0, 2).map((k) => k.name)).toEqual(['Second', 'First']);
  });

  it('refuses a key without a name or a scope', async () => {
    const before = (await keys()).body;
    const response = await create({ name: ' ', scopes: [] });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).details?.map((d) => d.message)).toEqual(
      expect.arrayContaining([SETUP_MESSAGES.name_required, SETUP_MESSAGES.scope_required]),
    );
    expect((await keys()).body).toBe(before);
  });

  it('revokes a key, and answers 404 for an unknown or foreign one', async () => {
    const created = (await create({ name: 'To revoke', scopes: ['decisions:read'] })).json() as {
      data: { api_key: { id: string } };
    };
    const id = created.data.api_key.id;
    const revoke = (keyId: string, caller = admin, partner = partnerId) =>
      testApp.app.inject({ method: 'DELETE', url: `${base(partner)}/api-keys/${keyId}`, headers: caller.headers });
    const revoked = await revoke(id);
    expect(revoked.statusCode).toBe(200);
    expect((revoked.json() as { data: { revoked_at: string | null } }).data.revoked_at).not.toBeNull();

    const other = await signInAs(testApp.app, 'staff');
    // Another institution's admin naming this key under their own institution: not theirs.
    const foreign = await revoke(id, other, other.partnerId!);
    expect(foreign.statusCode).toBe(404);
    expect(errorOf(foreign).message).toBe(SETUP_MESSAGES.api_key_not_found);
    expect((await revoke('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('needs manage_api_keys for every key route', async () => {
    const settingsManager = await signInAs(testApp.app, 'staff', { partnerId, permissions: ['manage_settings'] });
    expect((await keys(settingsManager)).statusCode).toBe(403);
    expect((await create({ name: 'No', scopes: ['programs:read'] }, settingsManager)).statusCode).toBe(403);
    const del = await testApp.app.inject({
      method: 'DELETE',
      url: `${base()}/api-keys/00000000-0000-4000-8000-000000000000`,
      headers: settingsManager.headers,
    });
    expect(del.statusCode).toBe(403);
  });

  it('is for members of the institution only', async () => {
    const matrix = { anonymous: 401, student: 403, admin: 403, staff: 404 };
    await expectAccess(testApp.app, { method: 'GET', url: `${base()}/api-keys` }, matrix);
    await expectAccess(
      testApp.app,
      { method: 'POST', url: `${base()}/api-keys`, payload: { name: 'x', scopes: ['programs:read'] } },
      matrix,
    );
    await expectAccess(
      testApp.app,
      { method: 'DELETE', url: `${base()}/api-keys/00000000-0000-4000-8000-000000000000` },
      matrix,
    );
  });
});
