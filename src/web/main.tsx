import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { createQueryClient, Providers } from './app/providers.js';
import { createAppRouter } from './app/router.js';

const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root element.');

// One query cache for the app: the routes' loaders fill it and the screens read it.
const queryClient = createQueryClient();
const router = createAppRouter(queryClient);

createRoot(container).render(
  <StrictMode>
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
