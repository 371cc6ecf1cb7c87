import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { attendanceFigures, excusedDaysOf } from '../../shared/attendance.stats.js';
import { renderScreen } from '../../../tests/support/render-web.js';
import { AttendanceTable } from './attendance-table.js';
import { AttendanceTotals } from './attendance-totals.js';

/**
 * The attendance screen's totals (D76): sessions and days said as such, "On time" rather than
 * "Early", punctuality in days at school, and what each figure counts, in the report PDF's words;
 * with what accepted absence notes excuse, in the totals and in the daily table (D93).
 */

/** 58 school days: 4 absent, 54 at school, 3 of them late. */
function days() {
  return Array.from({ length: 58 }, (_, i) => `2026-${String(9 + Math.floor(i / 28)).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`);
}

function records() {
  return days()
    .slice(4)
    .map((date, i) => ({
      date_scanned: date,
      attendance_am: 1,
      attendance_pm: 1,
      time_in: i < 3 ? '08:10' : '07:40',
      time_out: '14:40',
      late: i < 3 ? 1 : 0,
      time_scanned_in: null,
      time_scanned_out: null,
    }));
}

/**
 * Accepted notes: the first day absent whole, the second day's morning, and the third late arrival
 * (the 7th day, a Monday: a note covers school days only, and the list above has weekends).
 */
function excused() {
  const [first, second, , , , , seventh] = days();
  return excusedDaysOf([
    { date_from: first!, date_to: first!, part: 'whole_day' },
    { date_from: second!, date_to: second!, part: 'am' },
    { date_from: seventh!, date_to: seventh!, part: 'late' },
  ]);
}

const totals = () => screen.getAllByTestId('attendance-total').map((line) => line.textContent);

describe('the attendance totals', () => {
  it('says sessions and days as such, with on time and late in days', () => {
    renderScreen(<AttendanceTotals figures={attendanceFigures(days(), records())} />);
    expect(totals()).toEqual([
      'School days58',
      'Sessions present108 of 116 (two a day)',
      'Sessions absent8',
      'Sessions absent (excused)0',
      'Sessions absent (unexcused)8',
      'Days absent4',
      'Days at school54 of 58',
      'On time51 days of 54',
      'Late3 days',
      'Late (excused)0 days',
      'Attendance93% of sessions',
      'Punctuality94% of days at school on time',
    ]);
    screen.getByText(/Attendance counts sessions: two a school day/);
    screen.getByText(/Punctuality counts days at school/);
    expect(document.body.textContent).not.toMatch(/Early/);
  });

  it('splits the absent sessions and the late days by what accepted notes excuse', () => {
    renderScreen(<AttendanceTotals figures={attendanceFigures(days(), records(), true, excused())} />);
    expect(totals()).toContain('Sessions absent8');
    expect(totals()).toContain('Sessions absent (excused)3');
    expect(totals()).toContain('Sessions absent (unexcused)5');
    expect(totals()).toContain('Late (excused)1 day');
    expect(totals()).toContain('Attendance93% of sessions');
  });
});

describe('the daily table', () => {
  const row = (date: string) => screen.getByRole('row', { name: new RegExp(`^${date}`) });

  it('marks what accepted notes excuse, and leaves the rest as it was', () => {
    const [first, second, third, , fifth, , seventh] = days();
    renderScreen(<AttendanceTable schoolDays={days()} records={records()} excused={excused()} />);
    // A day without a record, excused whole; one excused for the morning only; one not excused.
    expect(within(row(first!)).getByRole('cell').textContent).toBe('Absent all day (excused)');
    expect(within(row(second!)).getByRole('cell').textContent).toBe('Absent all day (morning excused)');
    expect(within(row(third!)).getByRole('cell').textContent).toBe('Absent all day');
    // The third late arrival is excused, the first is not.
    expect(within(row(seventh!)).getAllByRole('cell')[2]!.textContent).toBe('YExcused');
    expect(within(row(fifth!)).getAllByRole('cell')[2]!.textContent).toBe('Y');
  });

  it('says an excused missed session as such, to the eye and to a screen reader', () => {
    const [first, second] = days();
    const gone = { ...records()[10]!, date_scanned: first!, attendance_pm: 0, time_out: '11:30', late: 0 };
    const plain = { ...gone, date_scanned: second! };
    renderScreen(
      <AttendanceTable schoolDays={[first!, second!]} records={[gone, plain]} excused={excusedDaysOf([{ date_from: first!, date_to: first!, part: 'pm' }])} />,
    );
    const pm = within(row(first!)).getAllByRole('cell')[1]!;
    expect(within(pm).getByText('Excused')).toBeTruthy();
    expect(within(pm).getByText('Absent (excused)')).toBeTruthy();
    const unexcused = within(row(second!)).getAllByRole('cell')[1]!;
    expect(unexcused.textContent).toBe('--Absent');
  });
});
