import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import {
  DEFAULTS,
  defaultPartnerSettings,
  readAdmissionsSettings,
  PartnerGeneralSettingsSchema,
  PartnerThemeSchema,
  SETUP_MESSAGES,
  type ApiKeyCreate,
  type CreatedApiKey,
  type PartnerAdmissionsSettings,
  type PartnerApiKey,
  type PartnerGeneralSettings,
  type PartnerTheme,
  type StoredPartnerSettings,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { cycles, partnerApiKeys, partnerSettings } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import type { DbOrTx } from '../../db/client.ts';

/**
 * That a cycle is one of the institution's. It lives here, below the cycles module, because the settings
 * name the current cycle and must check it; cycles and forms use it too (ADR 030 lists this read).
 */
export async function assertCycleOfPartner(db: DbOrTx, partnerId: string, cycleId: string): Promise<void> {
  const [found] = await db
    .select({ id: cycles.id })
    .from(cycles)
    .where(and(eq(cycles.partner_id, partnerId), eq(cycles.id, cycleId)))
    .limit(1);
  if (!found) throw new AppError('NOT_FOUND', SETUP_MESSAGES.cycle_not_found);
}

/** What the cycles need of the general settings: the current cycle and the time zone its days follow. */
export async function cycleSettings(
  db: DbOrTx,
  partnerId: string,
): Promise<{ currentCycleId: string | null; timezone: string }> {
  const [row] = await db
    .select({ general: partnerSettings.general })
    .from(partnerSettings)
    .where(eq(partnerSettings.partner_id, partnerId))
    .limit(1);
  const general = row?.general as Partial<StoredPartnerSettings['general']> | undefined;
  return { currentCycleId: general?.current_cycle_id ?? null, timezone: general?.timezone ?? DEFAULTS.timezone };
}

/**
 * The stored settings, each part read through its schema: a part that is missing or no longer reads as
 * one (an older shape) answers the defaults instead of failing the whole dashboard.
 */
export async function getSettings(db: DbOrTx, partnerId: string): Promise<StoredPartnerSettings> {
  const [row] = await db.select().from(partnerSettings).where(eq(partnerSettings.partner_id, partnerId)).limit(1);
  return storedSettings(row);
}

/** The settings of a stored row (read with other data in one query), each part defaulted when missing or invalid. */
export function storedSettings(
  row: { general: unknown; theme: unknown; admissions: unknown } | null | undefined,
): StoredPartnerSettings {
  const defaults = defaultPartnerSettings();
  return {
    general: PartnerGeneralSettingsSchema.safeParse(row?.general).data ?? defaults.general,
    theme: PartnerThemeSchema.safeParse(row?.theme).data ?? defaults.theme,
    admissions: readAdmissionsSettings(row?.admissions) ?? defaults.admissions,
  };
}

type Part = 'general' | 'theme' | 'admissions';

/**
 * Replaces one part of the settings. Institutions made before settings existed have no row yet, so the
 * write creates it with the defaults for the other parts; the row is locked so two saves never interleave.
 */
async function writePart<P extends Part>(
  tx: DbOrTx,
  partnerId: string,
  part: P,
  value: StoredPartnerSettings[P],
): Promise<StoredPartnerSettings> {
  await tx
    .insert(partnerSettings)
    .values({ partner_id: partnerId, ...defaultPartnerSettings() })
    .onConflictDoNothing({ target: partnerSettings.partner_id });
  await tx
    .select({ id: partnerSettings.partner_id })
    .from(partnerSettings)
    .where(eq(partnerSettings.partner_id, partnerId))
    .for('update');
  await tx
    .update(partnerSettings)
    .set({ [part]: value, updated_at: sql`now()` })
    .where(eq(partnerSettings.partner_id, partnerId));
  return getSettings(tx, partnerId);
}

export async function updateGeneral(db: Db, partnerId: string, general: PartnerGeneralSettings) {
  return db.transaction(async (tx) => {
    if (general.current_cycle_id) await assertCycleOfPartner(tx, partnerId, general.current_cycle_id);
    return writePart(tx, partnerId, 'general', general);
  });
}

/** Sets only the current cycle, keeping the rest of the general settings as they are. */
export async function updateCurrentCycle(db: Db, partnerId: string, cycleId: string | null) {
  return db.transaction(async (tx) => {
    if (cycleId) await assertCycleOfPartner(tx, partnerId, cycleId);
    const { general } = await getSettings(tx, partnerId);
    return writePart(tx, partnerId, 'general', { ...general, current_cycle_id: cycleId });
  });
}

export async function updateTheme(db: Db, partnerId: string, theme: PartnerTheme) {
  return db.transaction((tx) => writePart(tx, partnerId, 'theme', theme));
}

export async function updateAdmissions(db: Db, partnerId: string, admissions: PartnerAdmissionsSettings) {
  return db.transaction((tx) => writePart(tx, partnerId, 'admissions', admissions));
}

/* API keys */

const KEY_PREFIX_LENGTH = 8;
const PREFIX_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Only the hash is stored; the key is long and random, so a fast hash is enough (see the table). */
export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

/**
 * Records that a key was just used. At most once a minute per key, so a busy integration does not turn
 * every read into a write.
 */
export async function stampApiKeyUse(db: DbOrTx, keyId: string): Promise<void> {
  await db
    .update(partnerApiKeys)
    .set({ last_used_at: sql`now()` })
    .where(
      and(
        eq(partnerApiKeys.id, keyId),
        or(isNull(partnerApiKeys.last_used_at), lt(partnerApiKeys.last_used_at, sql`now() - interval '1 minute'`)),
      ),
    );
}

function newPrefix(): string {
  const bytes = randomBytes(KEY_PREFIX_LENGTH);
  return Array.from(bytes, (byte) => PREFIX_ALPHABET[byte % PREFIX_ALPHABET.length]).join('');
}

/** `kz_<prefix>_<secret>`: the prefix tells keys apart in the list; the secret is 32 random bytes. */
function newKey() {
  const prefix = newPrefix();
  return { prefix: `kz_${prefix}`, key: `kz_${prefix}_${randomBytes(32).toString('base64url')}` };
}

const iso = (value: string | null) => (value === null ? null : new Date(value).toISOString());

function toApiKey(row: typeof partnerApiKeys.$inferSelect): PartnerApiKey {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes,
    prefix: row.prefix,
    created_at: new Date(row.created_at).toISOString(),
    last_used_at: iso(row.last_used_at),
    revoked_at: iso(row.revoked_at),
  };
}

/** The institution's keys, newest first, revoked ones included (so their use can be traced). */
export async function listApiKeys(db: DbOrTx, partnerId: string): Promise<PartnerApiKey[]> {
  const rows = await db
    .select()
    .from(partnerApiKeys)
    .where(eq(partnerApiKeys.partner_id, partnerId))
    .orderBy(desc(partnerApiKeys.created_at), desc(partnerApiKeys.id));
  return rows.map(toApiKey);
}

export async function createApiKey(
  db: DbOrTx,
  partnerId: string,
  staffId: string,
  input: ApiKeyCreate,
): Promise<CreatedApiKey> {
  const { key, prefix } = newKey();
  const [row] = await db
    .insert(partnerApiKeys)
    .values({
      partner_id: partnerId,
      name: input.name,
      scopes: [...new Set(input.scopes)],
      prefix,
      key_hash: hashApiKey(key),
      created_by: staffId,
    })
    .returning();
  if (!row) throw new Error('api key insert returned no row');
  return { key, api_key: toApiKey(row) };
}

/** Revokes the key at once; revoking it again keeps the first time. Another institution's key is 404. */
export async function revokeApiKey(db: Db, partnerId: string, keyId: string): Promise<PartnerApiKey> {
  return db.transaction(async (tx) => {
    const mine = and(eq(partnerApiKeys.partner_id, partnerId), eq(partnerApiKeys.id, keyId));
    await tx
      .update(partnerApiKeys)
      .set({ revoked_at: sql`now()`, updated_at: sql`now()` })
      .where(and(mine, isNull(partnerApiKeys.revoked_at)));
    const [row] = await tx.select().from(partnerApiKeys).where(mine).limit(1);
    if (!row) throw new AppError('NOT_FOUND', SETUP_MESSAGES.api_key_not_found);
    return toApiKey(row);
  });
}

/** A new institution's settings: the spec's defaults (section 9). */
export async function createDefaultSettings(tx: DbOrTx, partnerId: string): Promise<void> {
  await tx.insert(partnerSettings).values({ partner_id: partnerId, ...defaultPartnerSettings() });
}
