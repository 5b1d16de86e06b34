import type { CSSProperties } from 'react';
import type { PartnerTheme } from '@kaminuza/shared';

/*
 * An institution's theme as CSS custom properties. Set on a wrapper, they re-colour everything inside it
 * that uses the design tokens (bg-brand, text-fg, rounded-lg …), so the institution page, the live preview
 * in its settings and the application form all render a theme with this one function. Text stays readable:
 * any chosen pair under WCAG AA contrast falls back to a readable colour instead of being used as is.
 */

/** WCAG 2 AA for normal text. */
export const AA_CONTRAST = 4.5;
const DARK_TEXT = '#0f172a';
const LIGHT_TEXT = '#ffffff';

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

/** `preferred` when it reads on every background given, else whichever of dark or light text reads best. */
export function readableOn(backgrounds: readonly string[], preferred: string): string {
  const worst = (color: string) => Math.min(...backgrounds.map((background) => contrastRatio(color, background)));
  if (worst(preferred) >= AA_CONTRAST) return preferred;
  return worst(DARK_TEXT) >= worst(LIGHT_TEXT) ? DARK_TEXT : LIGHT_TEXT;
}

/** Mixes two colours in sRGB: `weight` of `a`, the rest of `b`. */
export function mix(a: string, b: string, weight: number): string {
  const [ca, cb] = [channels(a), channels(b)];
  const mixed = ca.map((channel, i) => Math.round(channel * weight + cb[i]! * (1 - weight)));
  return `#${mixed.map((channel) => channel.toString(16).padStart(2, '0')).join('')}`;
}

/** The custom properties of a theme; style a wrapper with them (and `institutionThemeClass`). */
export function institutionThemeStyle(theme: PartnerTheme): CSSProperties {
  const { colors, typography, borderRadius, effects } = theme;
  const backgrounds = [colors.background, colors.surface];
  const text = readableOn(backgrounds, colors.text);
  // Secondary text is a softer shade of the text, as long as it still reads; else the text itself.
  const softer = mix(text, colors.surface, 0.75);
  const muted = readableOn(backgrounds, softer) === softer ? softer : text;
  // The primary colour is also used for links and the selected tab, which must read on the page.
  const brand = readableOn(backgrounds, colors.primary) === colors.primary ? colors.primary : text;
  const onBrand = readableOn([brand], LIGHT_TEXT);
  const properties: Record<string, string> = {
    '--kz-brand': brand,
    '--kz-brand-strong': mix(brand, onBrand === LIGHT_TEXT ? '#000000' : '#ffffff', 0.82),
    '--kz-on-brand': onBrand,
    '--kz-accent': colors.accent,
    '--kz-bg': colors.background,
    '--kz-surface': colors.surface,
    '--kz-surface-muted': mix(colors.surface, text, 0.92),
    '--kz-fg': text,
    '--kz-muted': muted,
    '--kz-border': mix(colors.surface, text, 0.8),
    /** The header band: the primary colour exactly as chosen, with whichever text reads on it. */
    '--inst-primary': colors.primary,
    '--inst-on-primary': readableOn([colors.primary], colors.background),
    '--inst-secondary': colors.secondary,
    '--inst-on-secondary': readableOn([colors.secondary], colors.background),
    '--inst-shadow': effects.shadows ? '0 1px 3px rgb(0 0 0 / 0.12), 0 6px 16px rgb(0 0 0 / 0.08)' : 'none',
    '--inst-max-width': `${theme.layout.max_width_px}px`,
    '--radius-sm': `${borderRadius.small_px}px`,
    '--radius-md': `${borderRadius.small_px}px`,
    '--radius-lg': `${borderRadius.medium_px}px`,
    '--radius-xl': `${borderRadius.large_px}px`,
    '--radius-2xl': `${borderRadius.large_px}px`,
    '--radius-full': '9999px',
  };
  return {
    ...(properties as CSSProperties),
    fontFamily: typography.font_family,
    fontSize: `${typography.base_size_px}px`,
    backgroundColor: colors.background,
    color: text,
  };
}

/** Classes a themed wrapper adds: no transitions inside when the institution turned animations off. */
export function institutionThemeClass(theme: PartnerTheme): string {
  return theme.effects.animations ? '' : '[&_*]:transition-none [&_*]:animate-none';
}
