export * from './errors.ts';
export * from './constants.ts';
export * from './routes.ts';
export * from './schemas/envelope.ts';
export * from './schemas/catalogue.ts';
export * from './schemas/waitlist.ts';
