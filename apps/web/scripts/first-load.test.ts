import { describe, expect, it } from 'vitest';
import { firstScreenPreloads, sortModulePreloads, type BuiltChunk } from './first-load.ts';

const chunk = (fileName: string, moduleIds: string[], imports: string[] = [], css: string[] = []): BuiltChunk => ({
  fileName,
  moduleIds,
  imports,
  isEntry: false,
  css,
});

describe('the first screens’ files', () => {
  const sizes: Record<string, number> = { 'assets/screens.js': 3000, 'assets/shared.js': 500 };
  const size = (file: string) => sizes[file] ?? 100;
  const chunks = [
    chunk('assets/app.js', ['/w/src/main.tsx'], ['assets/framework.js']),
    chunk('assets/framework.js', ['/w/node_modules/react/index.js']),
    chunk(
      'assets/screens.js',
      ['/w/src/app/layouts/student-shell.tsx', '/w/src/features/home/components/home-page.tsx'],
      ['assets/framework.js', 'assets/shared.js'],
      ['assets/screens.css'],
    ),
    chunk('assets/shared.js', ['/w/src/components/card.tsx']),
    ...['en', 'fr', 'rw'].map((language) =>
      chunk(`assets/texts-${language}.js`, [`\0virtual:kaminuza-locale/${language}/core`]),
    ),
  ];

  it('lists, per language, what /home needs beyond the app’s script, largest first', () => {
    const preloads = firstScreenPreloads(chunks, size);
    expect(preloads['/home']?.fr).toEqual({
      scripts: ['/assets/screens.js', '/assets/shared.js', '/assets/texts-fr.js'],
      styles: ['/assets/screens.css'],
    });
    expect(preloads['/home']?.en?.scripts).toContain('/assets/texts-en.js');
    expect(preloads['/home']?.en?.scripts).not.toContain('/assets/framework.js');
  });

  it('fails the build when a first screen’s module is in no chunk', () => {
    expect(() =>
      firstScreenPreloads(
        chunks.filter((c) => c.fileName !== 'assets/screens.js'),
        size,
      ),
    ).toThrow(/student-shell\.tsx/);
  });
});

describe('the order of the page’s preloads', () => {
  it('puts them before the app’s script, largest first, and keeps everything else', () => {
    const html = [
      '<head>',
      '<link rel="preload" href="/api/v1/auth/session" as="fetch" crossorigin="anonymous" />',
      '<script type="module" crossorigin src="/assets/app.js"></script>',
      '<link rel="modulepreload" crossorigin href="/assets/small.js">',
      '<link rel="modulepreload" crossorigin href="/assets/big.js">',
      '<link rel="stylesheet" crossorigin href="/assets/app.css">',
      '</head>',
    ].join('\n');
    const sorted = sortModulePreloads(html, (href) => (href.includes('big') ? 2 : 1));
    expect(sorted.split('\n')).toEqual([
      '<head>',
      '<link rel="preload" href="/api/v1/auth/session" as="fetch" crossorigin="anonymous" />',
      '<link rel="modulepreload" crossorigin href="/assets/big.js">',
      '<link rel="modulepreload" crossorigin href="/assets/small.js">',
      '<script type="module" crossorigin src="/assets/app.js"></script>',
      '<link rel="stylesheet" crossorigin href="/assets/app.css">',
      '</head>',
    ]);
  });

  it('leaves a page without a module script alone', () => {
    const html = '<head><link rel="modulepreload" href="/a.js"></head>';
    expect(sortModulePreloads(html, () => 1)).toBe(html);
  });
});
