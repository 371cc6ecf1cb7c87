import { createContext, useCallback, useContext, useMemo, useState } from 'react';
import { fieldsOfStep, isFieldVisible, type RecordValues } from '../../shared/registration.fields.js';
import type { DataStep } from '../../shared/registration.progress.js';

/**
 * What a registration field shows that is not stored: a value typed but refused (by a rule, or a
 * save that failed) and its message, or a value waiting for the connection. The registration frame
 * keeps them, so a field left for another step shows them again on its return, and the step's
 * line and the progress header never call a step complete while one of its fields shows an error.
 */
export interface FieldProblem {
  /** The text in the field (a value typed, or the stored value after a failed save). */
  draft: string;
  message: string;
  /** A valid value that could not reach the server yet; saved when the connection is back. */
  pending: boolean;
}

export interface FieldProblemsValue {
  problems: ReadonlyMap<string, FieldProblem>;
  /** Sets a field's problem, or clears it with null. */
  report: (name: string, problem: FieldProblem | null) => void;
}

const NO_PROBLEMS: FieldProblemsValue = { problems: new Map(), report: () => undefined };

export const FieldProblemsContext = createContext<FieldProblemsValue>(NO_PROBLEMS);

/** The frame's store of field problems (registration-layout.tsx provides it). */
export function useFieldProblemsStore(): FieldProblemsValue {
  const [problems, setProblems] = useState<ReadonlyMap<string, FieldProblem>>(new Map());
  const report = useCallback((name: string, problem: FieldProblem | null) => {
    setProblems((current) => {
      const old = current.get(name);
      if (problem === null ? old === undefined : old?.draft === problem.draft && old.message === problem.message && old.pending === problem.pending) {
        return current;
      }
      const next = new Map(current);
      if (problem === null) next.delete(name);
      else next.set(name, problem);
      return next;
    });
  }, []);
  return useMemo(() => ({ problems, report }), [problems, report]);
}

export function useFieldProblems(): FieldProblemsValue {
  return useContext(FieldProblemsContext);
}

/** The fields of a step shown now (by the record) that show a problem, in the step's order. */
export function problemFieldsOf(step: DataStep, problems: ReadonlyMap<string, FieldProblem>, values: RecordValues): string[] {
  if (problems.size === 0) return [];
  return fieldsOfStep(step)
    .filter((field) => problems.has(field.name) && isFieldVisible(field, values))
    .map((field) => field.name);
}
