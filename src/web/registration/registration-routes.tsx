import { Navigate, Route, Routes } from 'react-router';
import { DocumentsStepPage } from '../documents/documents-step-page.js';
import { CompleteStepPage } from '../registration-complete/complete-step-page.js';
import { RegistrationLayout } from './registration-layout.js';
import { RegistrationStepPage } from './registration-step-page.js';

export { REGISTRATION_STEPS } from './registration-steps.js';

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
        <Route path="documents" element={<DocumentsStepPage />} />
        <Route path="complete" element={<CompleteStepPage />} />
      </Route>
      <Route path="*" element={<Navigate to="/registration/student-data" replace />} />
    </Routes>
  );
}
