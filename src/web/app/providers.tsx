import type { ReactNode } from 'react';
import { CacheProvider, type EmotionCache } from '@emotion/react';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { HydrationBoundary, MutationCache, QueryCache, QueryClient, QueryClientProvider, type DehydratedState } from '@tanstack/react-query';
import { SnackbarProvider } from '../components/snackbar-provider.js';
import { isApiError } from '../lib/api-client.js';
import { noteStaffSignInEnded, sessionQueryKey } from '../lib/session.js';
import { theme } from './theme.js';

/**
 * A call refused because the session ended (401) or because the password must change first
 * (403 password_change_required) means the cached session is stale: ask again, and the guards
 * send the user where they belong. On the server (a page's first render) nothing is retried: the
 * reads answer at once, and a failure leaves the page to the browser.
 */
export function createQueryClient({ onServer = false }: { onServer?: boolean } = {}): QueryClient {
  const onError = (error: unknown) => {
    // A staff account disabled while signed in: its sign-in page says so (D84).
    if (isApiError(error, 'account_disabled') && error.status === 401) noteStaffSignInEnded(error.message);
    if (isApiError(error, 'unauthenticated', 'password_change_required', 'account_disabled')) {
      void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    }
  };
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        // A 4xx will answer the same again; only unreachable servers and 5xx are retried.
        retry: onServer ? false : (failureCount, error) => failureCount < 2 && !(isApiError(error) && error.status >= 400 && error.status < 500),
        staleTime: 30_000,
      },
      mutations: { retry: false },
    },
  });
  return queryClient;
}

interface ProvidersProps {
  queryClient: QueryClient;
  /** Emotion's style cache (app/emotion-cache.ts); MUI's default one when left out (component tests). */
  emotionCache?: EmotionCache;
  /** The answers a server-rendered page was rendered from (entry-server.tsx), put in the query cache first. */
  dehydratedState?: DehydratedState;
  children: ReactNode;
}

/** Query cache (made by `createQueryClient`), MUI theme with its baseline CSS, and the app's snackbar. */
export function Providers({ queryClient, emotionCache, dehydratedState, children }: ProvidersProps) {
  const app = (
    <QueryClientProvider client={queryClient}>
      <HydrationBoundary state={dehydratedState}>
        <ThemeProvider theme={theme}>
          <CssBaseline />
          <SnackbarProvider>{children}</SnackbarProvider>
        </ThemeProvider>
      </HydrationBoundary>
    </QueryClientProvider>
  );
  return emotionCache ? <CacheProvider value={emotionCache}>{app}</CacheProvider> : app;
}
