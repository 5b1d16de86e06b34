import type { PartnerSignUp } from '@kaminuza/shared';
import type { DbOrTx } from '../../db/client.ts';
import type { InstitutionRegistry } from '../auth/index.ts';
import { normalizeEmail } from '../auth/index.ts';
import { createDefaultForm } from '../forms/index.ts';
import { createDefaultSettings } from '../partner-settings/index.ts';
import { createInstitution, joinableInstitution, searchInstitutions } from '../partners/index.ts';

/**
 * A new institution as a staff sign-up creates it, in the sign-up's transaction: the pending institution
 * (partners), its default settings (partner-settings) and its default application form (forms).
 */
export async function registerInstitution(tx: DbOrTx, input: PartnerSignUp): Promise<string> {
  const partnerId = await createInstitution(tx, {
    name: input.institution_name,
    // The schema requires these when no institution is joined.
    institutionType: input.institution_type!,
    yearEstablished: input.year_established!,
    city: input.city,
    country: input.country,
    contactEmail: normalizeEmail(input.work_email),
    contactPhone: input.phone,
    website: input.website || null,
    accreditationBody: input.accreditation_body || null,
    accreditationNumber: input.accreditation_number || null,
    programCount: input.program_count ?? 0,
  });
  await createDefaultSettings(tx, partnerId);
  await createDefaultForm(tx, partnerId);
  return partnerId;
}

/** The institutions the auth module's staff sign-up works with. */
export const institutionRegistry: InstitutionRegistry = {
  register: registerInstitution,
  joinable: joinableInstitution,
  search: searchInstitutions,
};
