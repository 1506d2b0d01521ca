// What the chart components share (they are loaded lazily, and so is chart.js with this module):
// the line chart's parts, registered once, and the visitor's wish for less motion.
import { CategoryScale, Chart, Filler, Legend, LinearScale, LineElement, PointElement, Tooltip } from 'chart.js';

let lineChartPartsRegistered = false;

/** chart.js is tree-shaken: the parts a line chart needs are registered once, on first render. */
export function registerLineChartParts(): void {
  if (lineChartPartsRegistered) return;
  Chart.register(CategoryScale, LinearScale, PointElement, LineElement, Tooltip, Legend, Filler);
  lineChartPartsRegistered = true;
}

/** Charts draw without animation when the visitor asked their system for reduced motion. */
export const prefersReducedMotion = (): boolean => typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
