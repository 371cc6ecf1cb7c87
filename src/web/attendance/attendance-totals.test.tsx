import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { attendanceFigures } from '../../shared/attendance.stats.js';
import { renderScreen } from '../../../tests/support/render-web.js';
import { AttendanceTotals } from './attendance-totals.js';

/**
 * The attendance screen's totals (D76): sessions and days said as such, "On time" rather than
 * "Early", punctuality in days at school, and what each figure counts, in the report PDF's words.
 */

/** 58 school days: 4 absent, 54 at school, 3 of them late. */
function term() {
  const days = Array.from({ length: 58 }, (_, i) => `2026-${String(9 + Math.floor(i / 28)).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`);
  const records = days.slice(4).map((date, i) => ({
    date_scanned: date,
    attendance_am: 1,
    attendance_pm: 1,
    time_in: i < 3 ? '08:10' : '07:40',
    time_out: '14:40',
    late: i < 3 ? 1 : 0,
  }));
  return attendanceFigures(days, records);
}

const totals = () => screen.getAllByTestId('attendance-total').map((line) => line.textContent);

describe('the attendance totals', () => {
  it('says sessions and days as such, with on time and late in days', () => {
    renderScreen(<AttendanceTotals figures={term()} />);
    expect(totals()).toEqual([
      'School days58',
      'Sessions present108 of 116 (two a day)',
      'Sessions absent8',
      'Days absent4',
      'Days at school54 of 58',
      'On time51 days of 54',
      'Late3 days',
      'Attendance93% of sessions',
      'Punctuality94% of days at school on time',
    ]);
    screen.getByText(/Attendance counts sessions: two a school day/);
    screen.getByText(/Punctuality counts days at school/);
    expect(document.body.textContent).not.toMatch(/Early/);
  });
});
