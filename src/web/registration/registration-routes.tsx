import { Suspense, type ReactNode } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { PageSpinner } from '../components/page-spinner.js';
import { lazyNamed } from '../lib/lazy-named.js';
import { RegistrationLayout } from './registration-layout.js';
import { RegistrationStepPage } from './registration-step-page.js';

export { REGISTRATION_STEPS } from './registration-steps.js';

// The Documents and Complete steps (upload cards, dialogs, the form frame) come with their own
// visit, not with the data steps (docs/performance.md, web).
const DocumentsStepPage = lazyNamed(() => import('../documents/documents-step-page.js'), 'DocumentsStepPage');
const CompleteStepPage = lazyNamed(() => import('../registration-complete/complete-step-page.js'), 'CompleteStepPage');

const loading = (page: ReactNode) => <Suspense fallback={<PageSpinner />}>{page}</Suspense>;

/**
 * Everything under /registration/* except change-password (the auth feature owns that one): the
 * layout with the progress header and menus, the four data steps, and the Documents and Complete
 * steps (their own feature fills them; they read `useRegistration()`).
 */
export function RegistrationRoutes() {
  return (
    <Routes>
      <Route element={<RegistrationLayout />}>
        <Route path="student-data" element={<RegistrationStepPage step="student" title="Student Data" />} />
        <Route path="family-data" element={<RegistrationStepPage step="family" title="Family Data" />} />
        <Route path="health-data" element={<RegistrationStepPage step="health" title="Health Data" />} />
        <Route path="other-data" element={<RegistrationStepPage step="other" title="Other Data" />} />
        <Route path="documents" element={loading(<DocumentsStepPage />)} />
        <Route path="complete" element={loading(<CompleteStepPage />)} />
      </Route>
      <Route path="*" element={<Navigate to="/registration/student-data" replace />} />
    </Routes>
  );
}
