/*
 * What the entry pages use of TanStack Query, for their own bundle (ADR 044): a mutation's state (pending,
 * failed with its error, done with its answer). These pages cache nothing, so the query cache (9 KB
 * compressed) stays out; the build resolves `@tanstack/react-query` to this module for those pages only.
 */
import { useCallback, useState } from 'react';

interface Callbacks<TData> {
  onSuccess?: (data: TData) => unknown;
  onError?: (error: unknown) => unknown;
}

type State<TData> =
  { status: 'idle' } | { status: 'pending' } | { status: 'error'; error: unknown } | { status: 'success'; data: TData };

export function useMutation<TData, TVariables>({
  mutationFn,
  onSuccess,
}: {
  mutationFn: (variables: TVariables) => Promise<TData>;
  onSuccess?: (data: TData) => unknown;
}) {
  const [state, setState] = useState<State<TData>>({ status: 'idle' });
  const mutate = useCallback(
    (variables: TVariables, callbacks: Callbacks<TData> = {}) => {
      setState({ status: 'pending' });
      mutationFn(variables)
        .then(async (data) => {
          await onSuccess?.(data);
          setState({ status: 'success', data });
          await callbacks.onSuccess?.(data);
        })
        .catch((error: unknown) => {
          setState({ status: 'error', error });
          void callbacks.onError?.(error);
        });
    },
    [mutationFn, onSuccess],
  );
  return {
    mutate,
    isPending: state.status === 'pending',
    isError: state.status === 'error',
    isSuccess: state.status === 'success',
    error: state.status === 'error' ? state.error : null,
    data: state.status === 'success' ? state.data : undefined,
  };
}

/** The mutations' hooks ask for the cache to record a new session; there is none here. */
export function useQueryClient(): null {
  return null;
}
