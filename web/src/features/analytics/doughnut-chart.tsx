// A doughnut chart of a few parts of a whole (traffic sources, devices). Loaded lazily, so chart.js
// is only downloaded by the screens that draw one; the numbers are always listed beside it too.
import { ArcElement, Chart, Tooltip, type ChartData, type ChartOptions } from 'chart.js';
import { useMemo } from 'react';
import { Doughnut } from 'react-chartjs-2';
import { prefersReducedMotion } from '../../lib/charts';

let chartPartsRegistered = false;

/** chart.js is tree-shaken: the parts a doughnut needs are registered once, on first render. */
function registerChartParts(): void {
  if (chartPartsRegistered) return;
  Chart.register(ArcElement, Tooltip);
  chartPartsRegistered = true;
}

export interface DoughnutPart {
  label: string;
  value: number;
  color: string;
}

export default function DoughnutChart({ parts, label }: { parts: DoughnutPart[]; label: string }) {
  registerChartParts();
  const options = useMemo<ChartOptions<'doughnut'>>(
    () => ({
      responsive: true,
      maintainAspectRatio: false,
      cutout: '62%',
      animation: prefersReducedMotion() ? false : undefined,
      plugins: { legend: { display: false } },
    }),
    [],
  );
  const data = useMemo<ChartData<'doughnut'>>(
    () => ({
      labels: parts.map((part) => part.label),
      datasets: [{ data: parts.map((part) => part.value), backgroundColor: parts.map((part) => part.color), borderWidth: 2, borderColor: '#ffffff' }],
    }),
    [parts],
  );
  return (
    <div className="relative mx-auto size-40 shrink-0">
      <Doughnut data={data} options={options} role="img" aria-label={label} />
    </div>
  );
}
