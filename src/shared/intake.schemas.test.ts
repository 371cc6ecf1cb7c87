import { describe, expect, it } from 'vitest';
import { sexSchoolWarning, singleSexOfSchool } from './intake.schemas.js';

describe('singleSexOfSchool (docs/decisions.md D79)', () => {
  it('reads a girls’ or boys’ school from the word in its name, however written', () => {
    expect(singleSexOfSchool("St Rose's Girls' RC Primary School")).toBe('Female');
    expect(singleSexOfSchool('Malick Girls RC')).toBe('Female');
    expect(singleSexOfSchool("Newtown Boys' RC Primary School")).toBe('Male');
    expect(singleSexOfSchool("arima boy's rc")).toBe('Male');
  });

  it('says nothing of a mixed name, or of a word that only contains one', () => {
    expect(singleSexOfSchool('Tranquillity Government Primary School')).toBeNull();
    expect(singleSexOfSchool("Boys' and Girls' RC School")).toBeNull();
    expect(singleSexOfSchool('Boysville Primary')).toBeNull();
    expect(singleSexOfSchool('Cowboys Academy')).toBeNull();
  });

  it('warns of a boy from a girls’ school and a girl from a boys’ school only', () => {
    expect(sexSchoolWarning({ sex: 'Male', primary_school: "Malick Girls' RC Primary School" })).toBe(
      "Sex is Male, but Malick Girls' RC Primary School is a girls' school: check the Sex and the Primary School.",
    );
    expect(sexSchoolWarning({ sex: 'Female', primary_school: "Newtown Boys' RC Primary School" })).toMatch(/a boys' school/);
    expect(sexSchoolWarning({ sex: 'Female', primary_school: "Malick Girls' RC Primary School" })).toBeNull();
    expect(sexSchoolWarning({ sex: 'Male', primary_school: 'San Juan RC Primary School' })).toBeNull();
  });
});
