// One figure with its title and icon, as the dashboard, a website's Consent tab, analytics and
// recommendations show them; with a `definition`, the figure names its unit under the number and
// explains itself beside the title. `value` undefined: still loading, or '—' when it failed.
import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../lib/cn';
import { FigureHelp, type FigureDefinition } from './figure-help';
import { Card, CardContent, CardHeader, CardTitle } from './ui/card';

export function MetricTile({
  title,
  icon: Icon,
  value,
  definition,
  isError = false,
  small = false,
  className,
  children,
}: {
  title: string;
  icon: LucideIcon;
  value: string | undefined;
  definition?: FigureDefinition;
  isError?: boolean;
  small?: boolean;
  className?: string;
  /** Below the figure: a trend, a note. */
  children?: ReactNode;
}) {
  return (
    <Card className={className}>
      <CardHeader className="flex-row items-start justify-between gap-2 p-4 pb-2 sm:p-6 sm:pb-2">
        <CardTitle className="flex items-center gap-1 text-sm font-medium text-muted-foreground">
          {title}
          {definition ? <FigureHelp title={title} definition={definition} /> : null}
        </CardTitle>
        <Icon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
      </CardHeader>
      <CardContent className="space-y-2 p-4 pt-0 sm:p-6 sm:pt-0">
        <div>
          <p className={cn('font-bold', small ? 'text-lg' : 'text-2xl sm:text-3xl')} aria-label={`${title}: ${value ?? (isError ? 'unavailable' : 'loading')}`}>
            {value ?? (isError ? '—' : '…')}
          </p>
          {definition ? <p className="text-xs text-muted-foreground">{definition.counts}</p> : null}
        </div>
        {children}
      </CardContent>
    </Card>
  );
}
