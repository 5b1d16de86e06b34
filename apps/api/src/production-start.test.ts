import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PRODUCTION_NODE_OPTIONS } from '../scripts/build.ts';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

describe('the api as production starts it', () => {
  it('runs the build with the heap sized for a small server, in the start script and in the image', () => {
    const start = (JSON.parse(read('../package.json')) as { scripts: Record<string, string> }).scripts.start;
    expect(start).toBe(`node ${PRODUCTION_NODE_OPTIONS.join(' ')} dist/server.mjs`);
    const dockerfile = read('../../../Dockerfile');
    expect(dockerfile).toContain(`NODE_OPTIONS="${PRODUCTION_NODE_OPTIONS.join(' ')}"`);
    expect(dockerfile).toContain('MALLOC_ARENA_MAX=2');
    expect(dockerfile).toContain('CMD ["node", "apps/api/dist/server.mjs"]');
  });
});
