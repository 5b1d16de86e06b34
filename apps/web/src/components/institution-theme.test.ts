import { describe, expect, it } from 'vitest';
import { defaultPartnerSettings, type PartnerTheme } from '@kaminuza/shared';
import { AA_CONTRAST, contrastRatio, institutionThemeStyle, readableOn } from './institution-theme.ts';

const theme = (colors: Partial<PartnerTheme['colors']>): PartnerTheme => {
  const base = defaultPartnerSettings().theme;
  return { ...base, colors: { ...base.colors, ...colors } };
};
const property = (value: PartnerTheme, name: string) => (institutionThemeStyle(value) as Record<string, string>)[name];

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

  it('never sets text, links or button labels below AA', () => {
    for (const colors of [
      { primary: '#fde68a', text: '#eeeeee' },
      { primary: '#111827', background: '#000000', surface: '#0b0b0b', text: '#1f2937' },
      { primary: '#10b981', background: '#ffffff', surface: '#f0fdf4', text: '#334155' },
    ]) {
      const value = theme(colors);
      const { background, surface } = value.colors;
      for (const name of ['--kz-fg', '--kz-muted', '--kz-brand']) {
        const color = property(value, name)!;
        expect(contrastRatio(color, background), name).toBeGreaterThanOrEqual(AA_CONTRAST);
        expect(contrastRatio(color, surface), name).toBeGreaterThanOrEqual(AA_CONTRAST);
      }
      expect(contrastRatio(property(value, '--kz-on-brand')!, property(value, '--kz-brand')!)).toBeGreaterThanOrEqual(
        AA_CONTRAST,
      );
      expect(contrastRatio(property(value, '--inst-on-primary')!, value.colors.primary)).toBeGreaterThanOrEqual(
        AA_CONTRAST,
      );
    }
  });

  it('uses the chosen primary colour as is when it reads', () => {
    expect(property(theme({ primary: '#7c2d12' }), '--kz-brand')).toBe('#7c2d12');
    expect(property(theme({ primary: '#7c2d12' }), '--inst-primary')).toBe('#7c2d12');
  });
});
