import type { CSSProperties } from 'react';
import type { PartnerTheme } from '@kaminuza/shared';

/*
 * An institution's theme, drawn only in its own branded areas (ADR 029): the header band of its page and
 * of its application's start screen, in its primary colour as chosen, and its name above each view of the
 * application, in a shade of that colour that reads on the app's surfaces. Everything else — buttons,
 * links, surfaces, text, focus rings — keeps the app's own colours in the reader's light or dark mode.
 * The wrapper only defines `--inst-*` properties; the branded elements opt in to them.
 */

/** WCAG 2 AA for normal text. */
export const AA_CONTRAST = 4.5;
const DARK_TEXT = '#0f172a';
const LIGHT_TEXT = '#ffffff';
const BLACK = '#000000';

/**
 * The surfaces the app draws text on, per mode: `--kz-bg`, `--kz-surface` and `--kz-surface-muted` of
 * styles.css (a test keeps them in step). An institution's text colour must read on each.
 */
export const APP_SURFACES = {
  light: ['#f7f8f6', '#ffffff', '#eef2ef'],
  dark: ['#0d1513', '#15201d', '#1c2a26'],
} as const satisfies Record<'light' | 'dark', readonly string[]>;

function channels(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

/** Relative luminance (WCAG 2). */
export function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((channel) => {
    const c = channel / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

const worstOn = (backgrounds: readonly string[], color: string) =>
  Math.min(...backgrounds.map((background) => contrastRatio(color, background)));

/**
 * `preferred` when it reads on every background given, else dark or light text, whichever reads best.
 * On a colour halfway between black and white neither the softened dark text nor white reaches AA
 * (4.2:1 at worst): pure black does (4.58:1 at worst), so it is the last resort.
 */
export function readableOn(backgrounds: readonly string[], preferred: string): string {
  if (worstOn(backgrounds, preferred) >= AA_CONTRAST) return preferred;
  const best = worstOn(backgrounds, DARK_TEXT) >= worstOn(backgrounds, LIGHT_TEXT) ? DARK_TEXT : LIGHT_TEXT;
  return worstOn(backgrounds, best) >= AA_CONTRAST || worstOn(backgrounds, BLACK) < worstOn(backgrounds, best)
    ? best
    : BLACK;
}

/** Mixes two colours in sRGB: `weight` of `a`, the rest of `b`. */
export function mix(a: string, b: string, weight: number): string {
  const [ca, cb] = [channels(a), channels(b)];
  const mixed = ca.map((channel, i) => Math.round(channel * weight + cb[i]! * (1 - weight)));
  return `#${mixed.map((channel) => channel.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * `color` itself when it reads as text on every surface given (AA), else the shade of it nearest to it
 * that does: darkened toward black on light surfaces, lightened toward white on dark ones. Scaling toward
 * black keeps the hue exactly; toward white it keeps it too, paler. Luminance moves one way along the
 * mix, so a bisection finds the largest share of the colour that still reads; each candidate is checked
 * as the hex it rounds to, so the answer reads as written.
 */
export function readableShade(color: string, surfaces: readonly string[]): string {
  const normalized = color.toLowerCase();
  const reads = (candidate: string) => worstOn(surfaces, candidate) >= AA_CONTRAST;
  if (reads(normalized)) return normalized;
  const toward = worstOn(surfaces, BLACK) >= worstOn(surfaces, LIGHT_TEXT) ? BLACK : LIGHT_TEXT;
  // Surfaces both light and dark (never the app's) may leave no shade that reads: then plain text.
  if (!reads(toward)) return readableOn(surfaces, DARK_TEXT);
  let [low, high] = [0, 1];
  for (let step = 0; step < 16; step += 1) {
    const middle = (low + high) / 2;
    if (reads(mix(normalized, toward, middle))) low = middle;
    else high = middle;
  }
  return mix(normalized, toward, low);
}

/** The custom properties of a theme; style a wrapper with them (and `institutionThemeProps`' attribute). */
export function institutionThemeStyle(theme: PartnerTheme): CSSProperties {
  const { colors, typography, borderRadius, effects } = theme;
  const properties: Record<string, string> = {
    /** The header band: the primary colour exactly as chosen, with whichever text reads on it. */
    '--inst-primary': colors.primary,
    '--inst-on-primary': readableOn([colors.primary], colors.background),
    '--inst-secondary': colors.secondary,
    '--inst-on-secondary': readableOn([colors.secondary], colors.background),
    /** Text in the institution's colour (its name): a shade per mode; styles.css picks one as --inst-ink. */
    '--inst-ink-light': readableShade(colors.primary, APP_SURFACES.light),
    '--inst-ink-dark': readableShade(colors.primary, APP_SURFACES.dark),
    '--inst-font': typography.font_family,
    '--inst-radius': `${borderRadius.large_px}px`,
    '--inst-shadow': effects.shadows ? '0 1px 3px rgb(0 0 0 / 0.12), 0 6px 16px rgb(0 0 0 / 0.08)' : 'none',
  };
  return properties as CSSProperties;
}

/** Classes a themed wrapper adds: no transitions inside when the institution turned animations off. */
export function institutionThemeClass(theme: PartnerTheme): string {
  return theme.effects.animations ? '' : '[&_*]:transition-none [&_*]:animate-none';
}

/**
 * Everything a wrapper of an institution's area spreads on itself: the properties, the attribute that
 * styles.css keys the per-mode text colour on, and the classes. Nothing when the institution has no theme.
 */
export function institutionThemeProps(theme: PartnerTheme | null | undefined): {
  style?: CSSProperties;
  'data-institution-theme'?: '';
  className: string;
} {
  if (!theme) return { className: '' };
  return { style: institutionThemeStyle(theme), 'data-institution-theme': '', className: institutionThemeClass(theme) };
}
