import { describe, expect, it } from 'vitest';
import { CatalogueQuerySchema } from '@kaminuza/shared';
import { apiQuery, LOW_DATA_PAGE_SIZE } from './explore-query.ts';

const today = new Date('2026-03-01T10:00:00Z');
const query = (address: string) => apiQuery(new URLSearchParams(address), today);

describe('apiQuery', () => {
  it('passes the search, the filters, the list, the sort and the page on as the API takes them', () => {
    const out = query(
      'q=+kigali+&type=private&type=online&field=law&region=africa&size=small&setting=rural&tuition_min=100&tuition_max=5000&saved=true&sort=tuition&page=3',
    );
    expect(out).toBe(
      'q=kigali&type=private&type=online&field=law&region=africa&size=small&setting=rural&tuition_min=100&tuition_max=5000&saved=true&sort=tuition&page=3',
    );
    expect(CatalogueQuerySchema.safeParse(Object.fromEntries(new URLSearchParams(out))).success).toBe(true);
  });

  it('turns "within N days" into the closing date, and keeps "still open"', () => {
    expect(query('deadline=30')).toBe('deadline=2026-03-31');
    expect(query('deadline=90')).toBe('deadline=2026-05-30');
    expect(query('deadline=open')).toBe('deadline=open');
  });

  it('drops what the API would refuse, so a tampered address still shows results', () => {
    expect(query('type=castle&field=astrology&sort=random&page=0&page=x&tuition_min=-5&deadline=soon&saved=yes')).toBe(
      '',
    );
    expect(query('tuition_min=5000&tuition_max=100')).toBe('tuition_min=5000');
    expect(query(`q=${'a'.repeat(150)}`)).toBe(`q=${'a'.repeat(100)}`);
    expect(query('country=XX&country=Rwanda')).toBe('');
  });

  it('keeps the chosen country, as the address shares it', () => {
    expect(query('country=RW')).toBe('country=RW');
    expect(query('country=rw&q=college')).toBe('q=college&country=RW');
  });

  it('asks for a smaller page in low-data mode, a size the API takes, and the default otherwise', () => {
    const out = apiQuery(new URLSearchParams('q=law&page=2'), today, LOW_DATA_PAGE_SIZE);
    expect(out).toBe('q=law&page=2&page_size=10');
    const parsed = CatalogueQuerySchema.parse(Object.fromEntries(new URLSearchParams(out)));
    expect(parsed.page_size).toBe(LOW_DATA_PAGE_SIZE);
    expect(query('q=law')).not.toContain('page_size');
  });
});
