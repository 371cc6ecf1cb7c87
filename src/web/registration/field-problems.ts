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

/** The frame's store: every child's field problems, so one child's never shows in another's field. */
export interface FieldProblemsStore {
  /** One student's problems, by field name. */
  problemsOf: (studentId: string) => ReadonlyMap<string, FieldProblem>;
  /** Sets a student's field's problem, or clears it with null. */
  report: (studentId: string, name: string, problem: FieldProblem | null) => void;
}

/** What a field sees of the store: its own student's problems. */
export interface FieldProblemsValue {
  problems: ReadonlyMap<string, FieldProblem>;
  /** Sets a field's problem, or clears it with null. */
  report: (name: string, problem: FieldProblem | null) => void;
}

const NONE: ReadonlyMap<string, FieldProblem> = new Map();
const NO_PROBLEMS: FieldProblemsStore = { problemsOf: () => NONE, report: () => undefined };

export const FieldProblemsContext = createContext<FieldProblemsStore>(NO_PROBLEMS);

/**
 * The frame's store of field problems (registration-layout.tsx provides it), kept per student: a
 * family account switching between children finds each child's unsent values under that child's
 * fields and nowhere else.
 */
export function useFieldProblemsStore(): FieldProblemsStore {
  const [byStudent, setByStudent] = useState<ReadonlyMap<string, ReadonlyMap<string, FieldProblem>>>(new Map());
  const report = useCallback((studentId: string, name: string, problem: FieldProblem | null) => {
    setByStudent((all) => {
      const current = all.get(studentId) ?? NONE;
      const old = current.get(name);
      if (problem === null ? old === undefined : old?.draft === problem.draft && old.message === problem.message && old.pending === problem.pending) {
        return all;
      }
      const next = new Map(current);
      if (problem === null) next.delete(name);
      else next.set(name, problem);
      return new Map(all).set(studentId, next);
    });
  }, []);
  const problemsOf = useCallback((studentId: string) => byStudent.get(studentId) ?? NONE, [byStudent]);
  return useMemo(() => ({ problemsOf, report }), [problemsOf, report]);
}

/** One student's problems and a way to report them, for that student's fields. */
export function useFieldProblems(studentId: string): FieldProblemsValue {
  const store = useContext(FieldProblemsContext);
  const problems = store.problemsOf(studentId);
  const { report } = store;
  const reportOwn = useCallback((name: string, problem: FieldProblem | null) => report(studentId, name, problem), [report, studentId]);
  return useMemo(() => ({ problems, report: reportOwn }), [problems, reportOwn]);
}

/** The fields of a step shown now (by the record) that show a problem, in the step's order. */
export function problemFieldsOf(step: DataStep, problems: ReadonlyMap<string, FieldProblem>, values: RecordValues): string[] {
  if (problems.size === 0) return [];
  return fieldsOfStep(step)
    .filter((field) => problems.has(field.name) && isFieldVisible(field, values))
    .map((field) => field.name);
}
