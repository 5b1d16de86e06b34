import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { databaseOptions, parseEnv } from './env.ts';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

describe('parseEnv', () => {
  it('works with no variables at all (embedded mode)', () => {
    const env = parseEnv({});
    expect(env).toEqual({
      PORT: 3000,
      HOST: '0.0.0.0',
      DATA_DIR: `${repoRoot}data`,
      WEB_DIST: `${repoRoot}apps/web/dist`,
      LOG_LEVEL: 'info',
      NODE_ENV: 'development',
      PUBLIC_URL: 'http://localhost:3000',
    });
    expect(databaseOptions(env)).toEqual({ kind: 'pglite', dataDir: `${repoRoot}data/pglite` });
  });

  it('derives PUBLIC_URL from PORT, treats empty strings as unset and picks PostgreSQL from DATABASE_URL', () => {
    const env = parseEnv({ PORT: '8080', HOST: '', DATABASE_URL: 'postgres://u:p@db:5432/kz' });
    expect(env.PUBLIC_URL).toBe('http://localhost:8080');
    expect(env.HOST).toBe('0.0.0.0');
    expect(databaseOptions(env)).toEqual({ kind: 'postgres', url: 'postgres://u:p@db:5432/kz' });
  });

  it('keeps the database in memory with DATA_DIR=:memory:', () => {
    expect(databaseOptions(parseEnv({ DATA_DIR: ':memory:' }))).toEqual({ kind: 'pglite', dataDir: null });
  });

  it('drops a trailing slash from PUBLIC_URL', () => {
    expect(parseEnv({ PUBLIC_URL: 'https://kaminuza.example/' }).PUBLIC_URL).toBe('https://kaminuza.example');
  });

  it.each([
    { PORT: 'eighty' },
    { PORT: '70000' },
    { LOG_LEVEL: 'loud' },
    { DATABASE_URL: 'mysql://x' },
    { PUBLIC_URL: 'ftp://x' },
  ])('rejects %o', (source) => {
    expect(() => parseEnv(source)).toThrow();
  });
});
