import { describe, expect, it } from 'vitest';
import { qrPath } from './qr-code.tsx';

/** The dark modules of a drawn code, as "x,y" in the SVG's coordinates (quiet zone included). */
function darkModules(d: string): Set<string> {
  return new Set([...d.matchAll(/M(\d+) (\d+)h1v1h-1z/g)].map(([, x, y]) => `${x},${y}`));
}

/** A finder pattern's outer ring (7 × 7) starting at (x, y): every module of the ring is dark. */
function hasFinder(dark: Set<string>, x: number, y: number): boolean {
  for (let i = 0; i < 7; i++) {
    for (const [cx, cy] of [
      [x + i, y],
      [x + i, y + 6],
      [x, y + i],
      [x + 6, y + i],
    ]) {
      if (!dark.has(`${cx},${cy}`)) return false;
    }
  }
  // The ring's inside border is light, then the 3 × 3 centre is dark.
  return !dark.has(`${x + 1},${y + 1}`) && dark.has(`${x + 3},${y + 3}`);
}

describe('qrPath', () => {
  const url = 'https://kaminuza.example/letters/ABCD-EFGH-JKLM';

  it('draws a whole QR code with its quiet zone: three finder patterns, in a square of 4 + n + 4 modules', () => {
    const { size, d } = qrPath(url);
    const modules = size - 8;
    // QR versions are 21, 25, 29 … modules wide.
    expect((modules - 21) % 4).toBe(0);
    const dark = darkModules(d);
    expect(hasFinder(dark, 4, 4)).toBe(true);
    expect(hasFinder(dark, 4 + modules - 7, 4)).toBe(true);
    expect(hasFinder(dark, 4, 4 + modules - 7)).toBe(true);
    expect(hasFinder(dark, 4 + modules - 7, 4 + modules - 7)).toBe(false);
    // Nothing is drawn in the quiet zone.
    for (const key of dark) {
      const [x, y] = key.split(',').map(Number) as [number, number];
      expect(x >= 4 && y >= 4 && x < 4 + modules && y < 4 + modules).toBe(true);
    }
  });

  it('is the same code for the same link, and another code for another link', () => {
    expect(qrPath(url)).toEqual(qrPath(url));
    expect(qrPath(url).d).not.toBe(qrPath('https://kaminuza.example/letters/ABCD-EFGH-JKLN').d);
  });
});
