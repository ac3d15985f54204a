import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api';
import { notify } from './notify';

declare module '@tanstack/react-query' {
  interface Register {
    // `silentError`: the component shows its own, more specific message for this request.
    queryMeta: { silentError?: boolean };
    mutationMeta: { silentError?: boolean };
  }
}

/** Every failed request is shown once, here, unless the caller opted out; a 401 is not shown (we redirect). */
export function showApiError(error: unknown): void {
  if (error instanceof ApiError && error.kind === 'unauthorized') return;
  notify.error(error instanceof Error ? error.message : String(error));
}

function shouldRetry(failureCount: number, error: unknown): boolean {
  // Business failures and auth problems will not fix themselves; a dropped connection might.
  return error instanceof ApiError && error.kind === 'network' && failureCount < 1;
}

export function createQueryClient(options: { retry?: boolean } = {}): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (!query.meta?.silentError) showApiError(error);
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (!mutation.meta?.silentError) showApiError(error);
      },
    }),
    defaultOptions: {
      queries: {
        retry: options.retry === false ? false : shouldRetry,
        refetchOnWindowFocus: false,
        staleTime: 30_000,
      },
      mutations: { retry: false },
    },
  });
}
