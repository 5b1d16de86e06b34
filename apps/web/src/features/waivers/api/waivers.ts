import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  CycleSchema,
  FeeWaiverSchema,
  StaffFeeWaiverSchema,
  WaiverCodeSchema,
  type FeeWaiverStatus,
  type WaiverCodeInput,
  type WaiverRequestInput,
} from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';

/*
 * Fee waivers: the applicant's waiver of one application, and the institution's codes and requests.
 * Every change refreshes the applying screens too (['applications']): a waived fee lifts "pay first".
 */
export const waiverKeys = {
  own: (applicationId: string) => ['waivers', 'application', applicationId] as const,
  codes: (partnerId: string) => ['waivers', 'codes', partnerId] as const,
  requests: (partnerId: string, status: FeeWaiverStatus | 'all') => ['waivers', 'requests', partnerId, status] as const,
};

const applicationPath = (id: string) => `/applications/${encodeURIComponent(id)}/waiver`;
const partnerPath = (partnerId: string) => `/partners/${encodeURIComponent(partnerId)}`;

/* ---------------------------------------------------------------- applicant */

export function useOwnWaiver(applicationId: string, enabled = true) {
  return useQuery({
    queryKey: waiverKeys.own(applicationId),
    queryFn: () => api(applicationPath(applicationId), FeeWaiverSchema.nullable()),
    enabled,
  });
}

function useApplicantChange<T>(applicationId: string, send: (input: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: waiverKeys.own(applicationId) });
      await queryClient.invalidateQueries({ queryKey: ['applications'] });
    },
  });
}

export function useRedeemWaiverCode(applicationId: string) {
  return useApplicantChange(applicationId, (code: string) =>
    api(`${applicationPath(applicationId)}/code`, FeeWaiverSchema, { method: 'POST', body: { code } }),
  );
}

export function useRequestWaiver(applicationId: string) {
  return useApplicantChange(applicationId, (input: WaiverRequestInput) =>
    api(`${applicationPath(applicationId)}/request`, FeeWaiverSchema, { method: 'POST', body: input }),
  );
}

/* ---------------------------------------------------------------- staff */

/** The institution's admission cycles, to choose the one a code is good for. */
export function useInstitutionCycles(partnerId: string) {
  return useQuery({
    queryKey: ['waivers', 'cycles', partnerId],
    queryFn: () => api(`${partnerPath(partnerId)}/cycles`, z.array(CycleSchema)),
    enabled: partnerId !== '',
  });
}

export function useWaiverCodes(partnerId: string) {
  return useQuery({
    queryKey: waiverKeys.codes(partnerId),
    queryFn: () => api(`${partnerPath(partnerId)}/waiver-codes`, z.array(WaiverCodeSchema)),
    enabled: partnerId !== '',
  });
}

export function useCreateWaiverCode(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: WaiverCodeInput) =>
      api(`${partnerPath(partnerId)}/waiver-codes`, WaiverCodeSchema, { method: 'POST', body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: waiverKeys.codes(partnerId) }),
  });
}

export function useRevokeWaiverCode(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (codeId: string) =>
      api(`${partnerPath(partnerId)}/waiver-codes/${encodeURIComponent(codeId)}/revoke`, WaiverCodeSchema, {
        method: 'POST',
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: waiverKeys.codes(partnerId) }),
  });
}

export function useFeeWaivers(partnerId: string, status: FeeWaiverStatus | 'all') {
  return useQuery({
    queryKey: waiverKeys.requests(partnerId, status),
    queryFn: () =>
      api(
        `${partnerPath(partnerId)}/fee-waivers${status === 'all' ? '' : `?status=${status}`}`,
        z.array(StaffFeeWaiverSchema),
      ),
    enabled: partnerId !== '',
  });
}

export function useDecideWaiver(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ waiverId, decline }: { waiverId: string; decline?: string }) =>
      api(
        `${partnerPath(partnerId)}/fee-waivers/${encodeURIComponent(waiverId)}/${decline === undefined ? 'approve' : 'decline'}`,
        StaffFeeWaiverSchema,
        { method: 'POST', ...(decline === undefined ? {} : { body: { reason: decline } }) },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['waivers', 'requests', partnerId] }),
  });
}

/** Where staff download the document attached to a request. */
export const waiverDocumentUrl = (partnerId: string, waiverId: string) =>
  `/api/v1${partnerPath(partnerId)}/fee-waivers/${encodeURIComponent(waiverId)}/document`;
