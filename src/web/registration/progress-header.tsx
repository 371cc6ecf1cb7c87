import Step from '@mui/material/Step';
import StepButton from '@mui/material/StepButton';
import Stepper from '@mui/material/Stepper';
import { useNavigate } from 'react-router';
import type { ProgressFlags } from '../../shared/registration.progress.js';
import { REGISTRATION_STEPS } from './registration-steps.js';

interface ProgressHeaderProps {
  progress: ProgressFlags;
  activePath: string;
}

/**
 * The shared six-step header (docs/requirements.md R4): clickable in any order, each step showing its progress
 * flag with a check. Each button's name says whether the step is done.
 */
export function ProgressHeader({ progress, activePath }: ProgressHeaderProps) {
  const navigate = useNavigate();
  const active = REGISTRATION_STEPS.findIndex((step) => step.path === activePath);
  return (
    <nav aria-label="Registration progress">
      {/* Phones show icons only (the bottom navigation carries the names), by CSS so the server's
          page is already right at every width (D103). */}
      <Stepper nonLinear activeStep={active} alternativeLabel sx={{ mb: 3, overflowX: 'auto', py: 1, '& .MuiStepLabel-labelContainer': { display: { xs: 'none', sm: 'block' } } }}>
        {REGISTRATION_STEPS.map((step, index) => {
          const done = progress[step.flag] === 1;
          return (
            <Step key={step.path} completed={done} data-step={step.path} data-done={done ? '1' : '0'}>
              <StepButton
                onClick={() => void navigate(`/registration/${step.path}`)}
                aria-current={index === active ? 'step' : undefined}
                aria-label={`${step.label}: ${done ? 'done' : 'not done'}`}
              >
                {step.label}
              </StepButton>
            </Step>
          );
        })}
      </Stepper>
    </nav>
  );
}
