import { describe, expect, it } from 'vitest';
import { ReviewQueueQuerySchema } from '@kaminuza/shared';
import { isFiltered, queueQueryString, readQueue, withoutFilters, withQueueParam, withSort } from './queue-query.ts';

const CYCLE = '00000000-0000-4000-8000-0000000000d1';
const REVIEWER = '00000000-0000-4000-8000-0000000000b2';
const address = (text: string) => new URLSearchParams(text);

describe('the review queue in the address', () => {
  it('reads every filter, the sort and the page, and writes them back as the API takes them', () => {
    const text = `q=KMZ-2026&cycle_id=${CYCLE}&stage=interview&decision=none&release=draft&paid=false&submitted_by_staff=true&submitted_from=2026-01-01&submitted_to=2026-03-31&score_min=40&score_max=90&assigned_to=${REVIEWER}&sort=score&order=asc&page=3&page_size=50`;
    const query = readQueue(address(text));
    expect(query).toMatchObject({
      q: 'KMZ-2026',
      cycle_id: CYCLE,
      stage: 'interview',
      decision: 'none',
      release: 'draft',
      paid: false,
      submitted_by_staff: true,
      score_min: 40,
      score_max: 90,
      assigned_to: REVIEWER,
      sort: 'score',
      order: 'asc',
      page: 3,
      page_size: 50,
    });
    const written = queueQueryString(query);
    expect(written).toBe(text);
    expect(ReviewQueueQuerySchema.safeParse(Object.fromEntries(address(written))).success).toBe(true);
  });

  it('leaves the defaults out, so the same queue has one address and one cache entry', () => {
    const query = readQueue(address('sort=submitted_at&order=desc&page=1&page_size=25'));
    expect(queueQueryString(query)).toBe('');
    expect(isFiltered(query)).toBe(false);
  });

  it('drops what the API would refuse, so a tampered link still shows a queue', () => {
    const query = readQueue(
      address(
        'cycle_id=nope&decision=maybe&paid=yes&score_min=150&submitted_from=01/02/2026&sort=random&page=0&page_size=7&assigned_to=someone&q=+ada+',
      ),
    );
    expect(queueQueryString(query)).toBe('q=ada');
  });

  it('exports every matching row: the CSV link carries the filters and the sort, not the page', () => {
    const query = readQueue(address('paid=true&sort=name&order=asc&page=4&page_size=100'));
    expect(queueQueryString(query, { forExport: true })).toBe('paid=true&sort=name&order=asc');
  });

  it('goes back to the first page when a filter changes, but not when the page does', () => {
    const start = address('stage=new&page=4');
    expect(withQueueParam(start, 'decision', 'accepted').toString()).toBe('stage=new&decision=accepted');
    expect(withQueueParam(start, 'stage', undefined).toString()).toBe('');
    expect(withQueueParam(start, 'page', '5').toString()).toBe('stage=new&page=5');
    expect(withQueueParam(start, 'page_size', '25').toString()).toBe('stage=new');
  });

  it('sorts a new column in its natural order, and turns the order around on the same column', () => {
    const byName = withSort(address('page=2'), 'name');
    expect(byName.toString()).toBe('sort=name&order=asc');
    expect(withSort(byName, 'name').toString()).toBe('sort=name');
    expect(readQueue(withSort(byName, 'name'))).toMatchObject({ sort: 'name', order: 'desc' });
    expect(withSort(address(''), 'score').toString()).toBe('sort=score');
    expect(readQueue(withSort(address(''), 'submitted_at'))).toMatchObject({ sort: 'submitted_at', order: 'asc' });
  });

  it('clears the filters but keeps the sort and the page size', () => {
    const params = address('q=ada&paid=true&sort=name&order=asc&page=3&page_size=50');
    expect(withoutFilters(params).toString()).toBe('sort=name&order=asc&page_size=50');
  });
});
