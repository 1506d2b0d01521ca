// The Traffic view's line chart: unique visitors and page views per UTC day of the chosen range.
// Loaded lazily, so chart.js is only downloaded by the screens that draw it; the same figures are
// always in a visually hidden table beside it (site-analytics-report.tsx).
import type { ChartData } from 'chart.js';
import { useMemo } from 'react';
import { Line } from 'react-chartjs-2';
import { getDailyLineOptions, registerLineChartParts } from '../../lib/charts';
import type { DailyAnalytics } from './queries';
import { formatTrendDay } from './traffic';

export default function TrafficTrendChart({ series, label }: { series: readonly DailyAnalytics[]; label: string }) {
  registerLineChartParts();
  const options = useMemo(getDailyLineOptions, []);
  // A short range shows its few points; a long one would be a row of dots.
  const pointRadius = series.length <= 31 ? 3 : 0;
  const data = useMemo<ChartData<'line'>>(
    () => ({
      labels: series.map((day) => formatTrendDay(day.day)),
      datasets: [
        {
          label: 'Unique visitors',
          data: series.map((day) => day.uniqueVisitors),
          borderColor: '#2563eb',
          backgroundColor: 'rgba(37, 99, 235, 0.1)',
          fill: true,
          tension: 0.3,
          pointRadius,
        },
        {
          label: 'Page views',
          data: series.map((day) => day.pageviews),
          borderColor: '#16a34a',
          backgroundColor: 'rgba(22, 163, 74, 0.1)',
          // Unfilled: two translucent areas over each other blend into a muddy third colour.
          fill: false,
          tension: 0.3,
          pointRadius,
        },
      ],
    }),
    [series, pointRadius],
  );

  return (
    <div className="h-72">
      <Line data={data} options={options} role="img" aria-label={label} />
    </div>
  );
}
