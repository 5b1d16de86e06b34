import { beforeEach, describe, expect, it } from 'vitest';
import { isStudentPage, rememberReturn, takeReturn } from './return-to.ts';

describe('return-to', () => {
  beforeEach(() => localStorage.clear());

  it('keeps a student page once, for a day', () => {
    rememberReturn('/partners/abc/application', 1_000);
    expect(takeReturn(2_000)).toBe('/partners/abc/application');
    expect(takeReturn(2_000)).toBeNull();
    rememberReturn('/partners?country=RW', 1_000);
    expect(takeReturn(1_000 + 86_400_001)).toBeNull();
  });

  it('never keeps another origin, an auth page or a staff page', () => {
    for (const path of ['//evil.example/partners', 'https://evil.example', '/login', '/partner/dashboard', '/admin']) {
      expect(isStudentPage(path)).toBe(false);
      rememberReturn(path);
      expect(takeReturn()).toBeNull();
    }
    expect(isStudentPage('/partners')).toBe(true);
    expect(isStudentPage('/application/form?partner=x')).toBe(true);
  });
});
