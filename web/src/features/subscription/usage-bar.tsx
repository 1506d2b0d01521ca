// One usage bar: "3 of 5" with a bar coloured by usage level.
import { Progress } from '../../components/ui/progress';
import { formatNumber } from '../../lib/format';
import { getUsageLevel, getUsagePercent, type UsageLevel } from './usage';

const levelIndicator: Record<UsageLevel, string> = {
  green: 'bg-green-500',
  yellow: 'bg-yellow-500',
  red: 'bg-red-500',
};

export function UsageBar({ label, current, max }: { label: string; current: number; max: number }) {
  const percent = getUsagePercent(current, max);
  const level = getUsageLevel(percent);
  return (
    <div className="space-y-2">
      <div className="flex items-center justify-between text-sm">
        <span className="font-medium">{label}</span>
        <span className="text-muted-foreground">
          {formatNumber(current)} of {formatNumber(max)}
        </span>
      </div>
      <Progress
        value={Math.min(100, percent)}
        aria-label={`${label}: ${Math.round(percent)}% used`}
        data-level={level}
        indicatorClassName={levelIndicator[level]}
      />
    </div>
  );
}
