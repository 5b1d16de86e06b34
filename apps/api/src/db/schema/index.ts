export * from './partners.ts';
export * from './users.ts';
export * from './waitlist.ts';
export * from './email.ts';
export * from './dev-mailbox.ts';
export * from './auth.ts';
