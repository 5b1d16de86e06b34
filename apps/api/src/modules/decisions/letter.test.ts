import { describe, expect, it } from 'vitest';
import { VERIFICATION_CODE_PATTERN } from '@kaminuza/shared';
import { newVerificationCode } from '../../lib/verification-code.ts';
import { fillPlaceholders, longDate, renderLetter } from './letter.ts';
import { startOfDayIn } from '../../lib/time.ts';

const values = {
  student_name: 'Amina Uwase',
  program_name: 'Computer Science',
  campus_name: 'Kigali',
  university_name: 'University of Kigali',
  decision_date: '15 January 2099',
  cycle_name: '2099 intake',
  reference: 'KZ-ABCD-EFGH',
};

describe('verification codes', () => {
  it('draws codes of the letter pattern, never twice in many draws', () => {
    const codes = Array.from({ length: 2000 }, newVerificationCode);
    for (const code of codes) expect(code).toMatch(VERIFICATION_CODE_PATTERN);
    expect(new Set(codes).size).toBe(codes.length);
    // Every character of the alphabet turns up: the draw is not stuck on part of it.
    expect(new Set(codes.join('').replaceAll('-', '')).size).toBe(32);
  });
});

describe('placeholders', () => {
  it('fills single and double braces, and leaves unknown words as written', () => {
    expect(fillPlaceholders('Dear {student_name}, {{ program_name }} at {university_name}.', values)).toBe(
      'Dear Amina Uwase, Computer Science at University of Kigali.',
    );
    expect(fillPlaceholders('{nickname} {{nickname}} {reference}', values)).toBe(
      '{nickname} {{nickname}} KZ-ABCD-EFGH',
    );
  });

  it('never fills a value into itself twice', () => {
    expect(fillPlaceholders('{student_name}', { ...values, student_name: '{reference}' })).toBe('{reference}');
  });
});

describe('renderLetter', () => {
  const facts = {
    reference: 'KZ-ABCD-EFGH',
    student_name: 'Amina Uwase',
    university_name: 'University of Kigali',
    logo_url: null,
    program_name: 'Computer Science',
    campus_name: 'Kigali',
    cycle_name: '2099 intake',
    issued_on: '2099-01-15',
    conditions: [],
    reply_by_on: null,
  };
  const letter = { template: '', signature_name: '', signature_title: '', signature_image: null };

  it('splits a template into paragraphs at blank lines', () => {
    const issued = renderLetter(
      { ...letter, template: '  Dear {student_name},\r\n\r\n\r\nLine one\nline two  \n\n' },
      facts,
      'en',
      'ABCD-EFGH-JKLM',
      'https://kaminuza.example',
    );
    expect(issued.paragraphs).toEqual(['Dear Amina Uwase,', 'Line one\nline two']);
    expect(issued.verify_url).toBe('https://kaminuza.example/letters/ABCD-EFGH-JKLM');
  });

  it('writes the default text in each language, every placeholder filled', () => {
    for (const language of ['en', 'fr', 'rw'] as const) {
      const issued = renderLetter(letter, facts, language, 'ABCD-EFGH-JKLM', 'https://kaminuza.example');
      expect(issued.paragraphs).toHaveLength(4);
      const text = issued.paragraphs.join('\n');
      expect(text).not.toMatch(/[{}]/);
      for (const fact of ['Amina Uwase', 'Computer Science', 'Kigali', '2099 intake', 'KZ-ABCD-EFGH']) {
        expect(text).toContain(fact);
      }
      expect(text).toContain(longDate('2099-01-15', language));
      expect(issued.signature_name).not.toBe('');
    }
  });
});

describe('startOfDayIn', () => {
  it.each([
    ['2099-01-15', 'UTC', '2099-01-15T00:00:00.000Z'],
    ['2099-01-15', 'Africa/Kigali', '2099-01-14T22:00:00.000Z'],
    ['2026-07-01', 'America/New_York', '2026-07-01T04:00:00.000Z'],
    ['2026-01-15', 'America/New_York', '2026-01-15T05:00:00.000Z'],
    // Summer time starts at 2:00 that day: midnight is still on winter time.
    ['2026-03-08', 'America/New_York', '2026-03-08T05:00:00.000Z'],
    ['2026-11-01', 'America/New_York', '2026-11-01T04:00:00.000Z'],
    ['2026-06-01', 'Asia/Kolkata', '2026-05-31T18:30:00.000Z'],
    ['2026-01-01', 'Pacific/Auckland', '2025-12-31T11:00:00.000Z'],
    ['2026-01-01', 'Not/AZone', '2026-01-01T00:00:00.000Z'],
  ])('%s in %s begins at %s', (day, timezone, expected) => {
    expect(startOfDayIn(day, timezone).toISOString()).toBe(expected);
  });
});
