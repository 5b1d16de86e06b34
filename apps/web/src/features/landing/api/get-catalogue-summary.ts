import { queryOptions, useQuery } from '@tanstack/react-query';
import { CatalogueSummarySchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';

export const getCatalogueSummary = (signal?: AbortSignal) =>
  api('/catalogue/summary', CatalogueSummarySchema, { signal });

export const catalogueSummaryQuery = () =>
  queryOptions({ queryKey: ['catalogue', 'summary'], queryFn: ({ signal }) => getCatalogueSummary(signal) });

export function useCatalogueSummary() {
  return useQuery(catalogueSummaryQuery());
}
