import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { attendanceFigures, excusedDaysOf } from '../../shared/attendance.stats.js';
import { renderScreen } from '../../../tests/support/render-web.js';
import { AttendanceCharts } from './attendance-charts.js';

/**
 * The doughnuts' legends and spoken descriptions (D76, D93): absent split into excused and
 * unexcused, and the late days a note excuses. jsdom draws no canvas, so the chart itself is a
 * stand-in that keeps its accessible name; the browser spec shows the real one.
 */
vi.mock('react-chartjs-2', () => ({
  Doughnut: (props: { 'aria-label': string; data: { datasets: { data: number[] }[] } }) => (
    <div role="img" aria-label={props['aria-label']} data-values={props.data.datasets[0]!.data.join(',')} />
  ),
}));

describe('the attendance doughnuts', () => {
  it('splits the absent sessions into excused and unexcused and says how many late days are excused', () => {
    // A week: Monday absent (excused whole), Tuesday absent, Wednesday to Friday at school, Thursday late (excused).
    const week = ['2026-11-02', '2026-11-03', '2026-11-04', '2026-11-05', '2026-11-06'];
    const records = week.slice(2).map((date) => ({ date_scanned: date, attendance_am: 1, attendance_pm: 1, time_in: '07:40', time_out: '14:40', late: date === '2026-11-05' ? 1 : 0 }));
    const excused = excusedDaysOf([
      { date_from: '2026-11-02', date_to: '2026-11-02', part: 'whole_day' },
      { date_from: '2026-11-05', date_to: '2026-11-05', part: 'late' },
    ]);
    renderScreen(<AttendanceCharts figures={attendanceFigures(week, records, true, excused)} />);
    screen.getByText('Sessions present: 6');
    screen.getByText('Sessions absent (excused): 2');
    screen.getByText('Sessions absent (unexcused): 2');
    screen.getByText('Late: 1 day');
    screen.getByText('Late (excused): 1 day');
    const chart = screen.getByRole('img', { name: /^Attendance 60%/ });
    expect(chart.getAttribute('aria-label')).toContain('4 absent (2 excused, 2 unexcused)');
    // Present, absent excused, absent unexcused: three segments of the ring.
    expect(chart.dataset.values).toBe('6,2,2');
  });
});
