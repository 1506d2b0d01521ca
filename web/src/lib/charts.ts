// What the chart components share (they are loaded lazily, and so is chart.js with this module):
// the line chart's parts, registered once, the options of a line per day, and the visitor's wish for
// less motion.
import { CategoryScale, Chart, Filler, Legend, LinearScale, LineElement, PointElement, Tooltip, type ChartOptions } from 'chart.js';

let lineChartPartsRegistered = false;

/** chart.js is tree-shaken: the parts a line chart needs are registered once, on first render. */
export function registerLineChartParts(): void {
  if (lineChartPartsRegistered) return;
  Chart.register(CategoryScale, LinearScale, PointElement, LineElement, Tooltip, Legend, Filler);
  lineChartPartsRegistered = true;
}

/** Charts draw without animation when the visitor asked their system for reduced motion. */
export const prefersReducedMotion = (): boolean => typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

const dailyLineOptions: ChartOptions<'line'> = {
  responsive: true,
  maintainAspectRatio: false,
  interaction: { mode: 'index', intersect: false },
  plugins: { legend: { position: 'bottom' } },
  scales: {
    x: { grid: { display: false }, ticks: { maxTicksLimit: 8 } },
    y: { beginAtZero: true, ticks: { precision: 0 } },
  },
};

/** A line per day of counts: whole numbers from 0, a legend below, and no animation for reduced motion. */
export const getDailyLineOptions = (): ChartOptions<'line'> => (prefersReducedMotion() ? { ...dailyLineOptions, animation: false } : dailyLineOptions);
