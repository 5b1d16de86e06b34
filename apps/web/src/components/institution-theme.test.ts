import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultPartnerSettings, type PartnerTheme } from '@kaminuza/shared';
import {
  AA_CONTRAST,
  APP_SURFACES,
  contrastRatio,
  institutionThemeStyle,
  readableOn,
  readableShade,
} from './institution-theme.ts';

const theme = (colors: Partial<PartnerTheme['colors']>): PartnerTheme => {
  const base = defaultPartnerSettings().theme;
  return { ...base, colors: { ...base.colors, ...colors } };
};
const style = (value: PartnerTheme) => institutionThemeStyle(value) as Record<string, string>;
const property = (value: PartnerTheme, name: string) => style(value)[name];

const hex = (r: number, g: number, b: number) =>
  `#${[r, g, b].map((channel) => channel.toString(16).padStart(2, '0')).join('')}`;

/** Every colour of a 16-step cube of sRGB (4,096 colours, black and white included), and some in between. */
function sampleColours(): string[] {
  const steps = Array.from({ length: 16 }, (_, i) => i * 17);
  const colours: string[] = [];
  for (const r of steps) for (const g of steps) for (const b of steps) colours.push(hex(r, g, b));
  // Mid-luminance colours are the hardest to make readable on both light and dark.
  colours.push('#6366f1', '#2f80ed', '#3b82f6', '#e11d48', '#777777', '#767676', '#808080', '#0ea5e9', '#10b981');
  return colours;
}

describe('institution theme', () => {
  it('measures contrast as WCAG does', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 1);
  });

  it('keeps a readable chosen colour and replaces one that fails', () => {
    expect(readableOn(['#ffffff'], '#1d4ed8')).toBe('#1d4ed8');
    expect(readableOn(['#ffffff'], '#fde68a')).toBe('#0f172a');
    expect(readableOn(['#111111'], '#222222')).toBe('#ffffff');
  });

  it('finds text that reads on any single colour, even one halfway between black and white', () => {
    for (const background of sampleColours()) {
      expect(contrastRatio(readableOn([background], '#0f172a'), background), background).toBeGreaterThanOrEqual(
        AA_CONTRAST,
      );
    }
  });

  it("knows the app's own surfaces as the style sheet defines them, in light and dark", () => {
    const css = readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../styles.css'), 'utf8');
    const block = (selector: string) => css.slice(css.indexOf(`${selector} {`)).split('}')[0]!;
    const token = (selector: string, name: string) =>
      new RegExp(`--kz-${name}: (#[0-9a-f]{6});`).exec(block(selector))?.[1];
    for (const [mode, selector] of [
      ['light', ':root'],
      ['dark', '.dark'],
    ] as const) {
      expect(APP_SURFACES[mode]).toEqual([
        token(selector, 'bg'),
        token(selector, 'surface'),
        token(selector, 'surface-muted'),
      ]);
    }
  });

  it("gives any institution colour a shade that reads at AA on the app's surfaces, light and dark", () => {
    for (const colour of sampleColours()) {
      for (const mode of ['light', 'dark'] as const) {
        const shade = readableShade(colour, APP_SURFACES[mode]);
        expect(shade).toMatch(/^#[0-9a-f]{6}$/);
        for (const surface of APP_SURFACES[mode]) {
          expect(contrastRatio(shade, surface), `${colour} in ${mode} on ${surface}`).toBeGreaterThanOrEqual(
            AA_CONTRAST,
          );
        }
      }
    }
  });

  it('keeps the colour itself where it reads, and else changes it no more than needed, keeping its hue', () => {
    // A dark red reads on the light surfaces as it is; a pale yellow reads on the dark ones.
    expect(readableShade('#7c2d12', APP_SURFACES.light)).toBe('#7c2d12');
    expect(readableShade('#fde68a', APP_SURFACES.dark)).toBe('#fde68a');
    // Indigo fails in both modes: darker in light mode, lighter in dark mode, still recognisably blue.
    const light = readableShade('#6366f1', APP_SURFACES.light);
    const dark = readableShade('#6366f1', APP_SURFACES.dark);
    const channels = (value: string) => [1, 3, 5].map((i) => Number.parseInt(value.slice(i, i + 2), 16));
    for (const shade of [light, dark]) {
      const [r, g, b] = channels(shade) as [number, number, number];
      expect(b, shade).toBeGreaterThan(r);
      expect(b, shade).toBeGreaterThan(g);
    }
    // No more than needed: a shade a little closer to the chosen colour would fall below AA.
    for (const [shade, surfaces] of [
      [light, APP_SURFACES.light],
      [dark, APP_SURFACES.dark],
    ] as const) {
      const worst = Math.min(...surfaces.map((surface) => contrastRatio(shade, surface)));
      expect(worst).toBeLessThan(AA_CONTRAST + 0.1);
    }
  });

  it("sets the institution's text colour per mode, never below AA, and leaves the app's own tokens alone", () => {
    for (const primary of sampleColours().filter((_, i) => i % 7 === 0)) {
      const value = style(theme({ primary, text: '#eeeeee', background: '#000000', surface: '#0b0b0b' }));
      for (const mode of ['light', 'dark'] as const) {
        for (const surface of APP_SURFACES[mode]) {
          expect(contrastRatio(value[`--inst-ink-${mode}`]!, surface), `${primary} ${mode}`).toBeGreaterThanOrEqual(
            AA_CONTRAST,
          );
        }
      }
      // The header band: the chosen colour as is, with text that reads on it.
      expect(value['--inst-primary']).toBe(primary);
      expect(contrastRatio(value['--inst-on-primary']!, primary), primary).toBeGreaterThanOrEqual(AA_CONTRAST);
      // The app's buttons, links, surfaces, text and focus ring keep the app's colours in either mode.
      expect(Object.keys(value).filter((name) => name.startsWith('--kz-') || name.startsWith('--color-'))).toEqual([]);
      expect(value).not.toHaveProperty('color');
      expect(value).not.toHaveProperty('backgroundColor');
    }
  });

  it('uses the chosen primary colour as is for the band, and for text where it reads', () => {
    expect(property(theme({ primary: '#7c2d12' }), '--inst-primary')).toBe('#7c2d12');
    expect(property(theme({ primary: '#7c2d12' }), '--inst-ink-light')).toBe('#7c2d12');
    expect(property(theme({ primary: '#0ea5e9' }), '--inst-ink-dark')).toBe('#0ea5e9');
  });
});
