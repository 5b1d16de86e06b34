import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CitySearchQuerySchema, CitySuggestionSchema, dataEnvelope } from '@kaminuza/shared';
import { requireUser } from '../auth/index.ts';
import type { Geocoder } from './geocoder.ts';

/** Place search for address fields. Any signed-in user (students during onboarding and in the profile). */
export const geoRoutes: FastifyPluginAsyncZod<{ geocoder: Geocoder }> = async (app, { geocoder }) => {
  app.get(
    '/geo/cities',
    {
      preValidation: requireUser,
      schema: {
        tags: ['geo'],
        querystring: CitySearchQuerySchema,
        response: { 200: dataEnvelope(z.array(CitySuggestionSchema)) },
      },
    },
    async (request) => ({ data: await geocoder.searchCities(request.query) }),
  );
};
