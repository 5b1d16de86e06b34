/**
 * `npm run admin:create -- --email admin@example.org --password '…' [--first-name Ada --last-name Admin]`:
 * creates a verified admin in the database the server uses (DATABASE_URL, else PGlite under DATA_DIR).
 * Production has no default admin; this is how the first one is made.
 */
import { parseArgs } from 'node:util';
import { AUTH_MESSAGES, EmailSchema, FirstNameSchema, LastNameSchema, PasswordSchema } from '@kaminuza/shared';
import { openDatabase } from '../src/db/client.ts';
import { databaseOptions, loadEnv } from '../src/lib/env.ts';
import { createVerifiedAccount } from '../src/modules/auth/accounts.ts';
import { isCommonPassword } from '../src/modules/auth/common-passwords.ts';
import { hashPassword } from '../src/modules/auth/password.ts';

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    password: { type: 'string' },
    'first-name': { type: 'string', default: 'Platform' },
    'last-name': { type: 'string', default: 'Admin' },
  },
  strict: true,
});

const check = <T>(
  label: string,
  result: { success: true; data: T } | { success: false; error: { issues: { message: string }[] } },
) =>
  result.success ? result.data : fail(`--${label}: ${result.error.issues.map((issue) => issue.message).join('; ')}`);

if (!values.email || !values.password) fail('Usage: npm run admin:create -- --email <email> --password <password>');
const email = check('email', EmailSchema.safeParse(values.email));
const password = check('password', PasswordSchema.safeParse(values.password));
if (isCommonPassword(password)) fail(`--password: ${AUTH_MESSAGES.weak_password}`);
const firstName = check('first-name', FirstNameSchema.safeParse(values['first-name']));
const lastName = check('last-name', LastNameSchema.safeParse(values['last-name']));

const database = await openDatabase(databaseOptions(loadEnv()));
try {
  await database.migrate();
  const created = await createVerifiedAccount(database.db, {
    type: 'admin',
    email,
    passwordHash: await hashPassword(password),
    firstName,
    lastName,
  });
  if (!created) {
    console.error(`An account with the email ${email} already exists; nothing was changed.`);
    process.exitCode = 1;
  } else {
    console.log(`Admin ${created.email} created (verified). Sign in at /login/admin.`);
  }
} finally {
  await database.close();
}
