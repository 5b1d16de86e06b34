import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { AdminInstitution, AdminInstitutionPage } from '@kaminuza/shared';
import { ADMIN_QUERY_KEY, queryString } from './query-string.ts';
import { showDecision } from './show-decision.ts';

function institution(id: string, status: AdminInstitution['status']): AdminInstitution {
  return {
    id,
    name: `Institution ${id}`,
    institution_type: 'private',
    year_established: 2000,
    city: 'Kigali',
    country: 'RW',
    website: null,
    contact_email: null,
    contact_phone: null,
    accreditation_body: null,
    accreditation_number: null,
    program_count: 0,
    status,
    published: false,
    review_reason: null,
    reviewed_at: null,
    created_at: '2026-01-01T00:00:00Z',
    primary_contact: null,
  };
}

const page = (items: AdminInstitution[], total = items.length): AdminInstitutionPage => ({
  items,
  total,
  page: 1,
  page_size: 10,
});

describe('showDecision', () => {
  it('takes the decided institution out of the review queue and updates it in the directory', () => {
    const client = new QueryClient();
    const queueKey = [...ADMIN_QUERY_KEY, 'institutions', { status: 'pending', page: 1, page_size: 10 }];
    const directoryKey = [...ADMIN_QUERY_KEY, 'universities', { page: 1, page_size: 20 }];
    client.setQueryData(queueKey, page([institution('a', 'pending'), institution('b', 'pending')], 12));
    client.setQueryData(directoryKey, page([institution('a', 'pending'), institution('c', 'approved')]));

    showDecision(client, { ...institution('a', 'approved'), review_reason: null });

    const queue = client.getQueryData<AdminInstitutionPage>(queueKey)!;
    expect(queue.items.map((i) => i.id)).toEqual(['b']);
    expect(queue.total).toBe(11);
    const directory = client.getQueryData<AdminInstitutionPage>(directoryKey)!;
    expect(directory.items.map((i) => [i.id, i.status])).toEqual([
      ['a', 'approved'],
      ['c', 'approved'],
    ]);
  });

  it('leaves a queue page that does not hold the institution as it was', () => {
    const client = new QueryClient();
    const key = [...ADMIN_QUERY_KEY, 'institutions', { status: 'pending', page: 2, page_size: 10 }];
    const before = page([institution('x', 'pending')], 11);
    client.setQueryData(key, before);
    showDecision(client, institution('a', 'rejected'));
    expect(client.getQueryData(key)).toBe(before);
  });
});

describe('queryString', () => {
  it('sends only the values that are set', () => {
    expect(queryString({ q: 'nile & co', status: undefined, page: 2, page_size: 20 })).toBe(
      '?q=nile+%26+co&page=2&page_size=20',
    );
    expect(queryString({ q: '', status: undefined })).toBe('');
  });
});
