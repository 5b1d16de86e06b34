import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { StaffPermission, UserType } from '@kaminuza/shared';
import type { App } from '../app.ts';
import { partners } from '../db/schema/index.ts';
import { createVerifiedAccount } from '../modules/auth/accounts.ts';
import { hashPassword } from '../modules/auth/password.ts';

export const TEST_PASSWORD = 'Test#Passw0rd';

/** Hashed once per test process: argon2id is deliberately slow. */
let passwordHash: Promise<string> | undefined;

export interface TestAccount {
  id: string;
  email: string;
  type: UserType;
  partnerId: string | null;
  /** Request headers carrying the account's session cookie. */
  headers: { cookie: string };
}

/** An approved institution for staff accounts, created on first use in this app's database. */
async function testPartner(app: App): Promise<string> {
  const { db } = app.accounts;
  const slug = `test-institution-${randomBytes(4).toString('hex')}`;
  const [partner] = await db
    .insert(partners)
    .values({
      slug,
      name: `Test Institution ${slug.slice(-8)}`,
      status: 'approved',
      address_city: 'Kigali',
      address_country: 'RW',
      institution_type: 'public',
      year_established: 2000,
      region: 'africa',
      size: 'medium',
      setting: 'urban',
    })
    .returning({ id: partners.id });
  if (!partner) throw new Error('test partner insert returned no row');
  return partner.id;
}

/** The `name=value` pairs of a response's Set-Cookie headers, as a Cookie request header. */
export function cookieHeader(setCookie: string | string[] | undefined): string {
  const values = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
  return values.map((value) => value.split(';')[0]).join('; ');
}

/**
 * Creates a verified account of the type (students get a student record, staff an approved
 * institution, unless one is given, and a staff record) and signs it in through the API. Each call makes a new account.
 */
export async function signInAs(
  app: App,
  type: UserType,
  options: {
    email?: string;
    partnerId?: string;
    /** Staff only: the member's permissions (default ['all']) and whether they are the primary contact. */
    permissions?: StaffPermission[];
    primaryContact?: boolean;
  } = {},
): Promise<TestAccount> {
  const email = options.email ?? `${type}-${randomBytes(6).toString('hex')}@test.kaminuza.example`;
  const partnerId = type === 'staff' ? (options.partnerId ?? (await testPartner(app))) : null;
  passwordHash ??= hashPassword(TEST_PASSWORD);
  const user = await createVerifiedAccount(app.accounts.db, {
    type,
    email,
    passwordHash: await passwordHash,
    firstName: 'Test',
    lastName: type === 'student' ? 'Student' : type === 'staff' ? 'Staff' : 'Admin',
    ...(partnerId ? { partnerId } : {}),
    ...(options.permissions ? { permissions: options.permissions } : {}),
    ...(options.primaryContact !== undefined ? { primaryContact: options.primaryContact } : {}),
  });
  if (!user) throw new Error(`signInAs: ${email} already exists`);

  const response = await app.inject({
    method: 'POST',
    url: type === 'admin' ? '/api/v1/auth/sign-in/admin' : '/api/v1/auth/sign-in',
    payload: { email, password: TEST_PASSWORD },
    // A per-account address keeps the sign-in rate limit of one test file's many sign-ins apart.
    remoteAddress: `10.${randomBytes(3).join('.')}`,
  });
  if (response.statusCode !== 200) throw new Error(`signInAs(${type}) failed: ${response.body}`);
  return {
    id: user.id,
    email: user.email,
    type,
    partnerId,
    headers: { cookie: cookieHeader(response.headers['set-cookie']) },
  };
}

export interface RouteUnderTest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  payload?: object;
}

export type Audience = 'anonymous' | UserType;

/**
 * The authorization matrix of one route: asserts the status each audience gets. Every audience is a
 * fresh account, so one caller's state never leaks into another's answer.
 */
export async function expectAccess(app: App, route: RouteUnderTest, expected: Record<Audience, number>): Promise<void> {
  const actual: Partial<Record<Audience, number>> = {};
  for (const audience of Object.keys(expected) as Audience[]) {
    const headers = audience === 'anonymous' ? {} : (await signInAs(app, audience)).headers;
    const response = await app.inject({
      method: route.method,
      url: route.url,
      headers,
      ...(route.payload ? { payload: route.payload } : {}),
    });
    actual[audience] = response.statusCode;
  }
  expect(actual, `${route.method} ${route.url}`).toEqual(expected);
}
