import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inlineSources, siteDirectives } from './csp.ts';

const hash = (code: string) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`;

describe('inlineSources', () => {
  it('hashes inline scripts and styles, not external ones, once each', () => {
    const script = "document.documentElement.classList.add('dark')";
    const page = `<html><head><script>${script}</script><script type="module" src="/assets/a.js"></script>
      <style>body{margin:0}</style></head><body><p>x</p></body></html>`;
    const found = inlineSources([page, page]);
    expect(found.scripts).toEqual([hash(script)]);
    expect(found.styles).toEqual([hash('body{margin:0}')]);
    expect(found.styleAttributes).toBe(false);
  });

  it('allows style attributes only through style-src-attr, when the HTML has them', () => {
    const directives = siteDirectives(inlineSources(['<div style="color:red"></div>']));
    expect(directives['style-src']).toEqual(["'self'"]);
    expect(directives['style-src-attr']).toEqual(["'unsafe-inline'"]);
    expect(siteDirectives(inlineSources(['<div></div>']))['style-src-attr']).toBeUndefined();
  });
});
