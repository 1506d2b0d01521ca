// The 'Consent Trends' line chart: accepted and declined choices per day. Loaded lazily so chart.js
// is only downloaded by the screens that draw it.
import type { ChartData } from 'chart.js';
import { useMemo } from 'react';
import { Line } from 'react-chartjs-2';
import { getDailyLineOptions, registerLineChartParts } from '../../lib/charts';
import type { DailyConsents } from '../stats/queries';

const dayLabelFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

export default function ConsentTrendsChart({ series }: { series: DailyConsents[] }) {
  registerLineChartParts();
  const options = useMemo(getDailyLineOptions, []);
  const data = useMemo<ChartData<'line'>>(
    () => ({
      labels: series.map((day) => dayLabelFormat.format(new Date(`${day.date}T00:00:00Z`))),
      datasets: [
        {
          label: 'Accepted',
          data: series.map((day) => day.accepted),
          borderColor: '#16a34a',
          backgroundColor: 'rgba(22, 163, 74, 0.1)',
          fill: true,
          tension: 0.3,
          pointRadius: 0,
        },
        {
          label: 'Declined',
          data: series.map((day) => day.declined),
          borderColor: '#dc2626',
          backgroundColor: 'rgba(220, 38, 38, 0.1)',
          // Unfilled: two translucent areas over each other blend into a muddy third colour.
          fill: false,
          tension: 0.3,
          pointRadius: 0,
        },
      ],
    }),
    [series],
  );
  const total = series.reduce((sum, day) => sum + day.accepted + day.declined, 0);

  return (
    <div className="h-72">
      <Line
        data={data}
        options={options}
        role="img"
        aria-label={`Consent choices per day over the last ${series.length} days: ${total} in total`}
      />
    </div>
  );
}
