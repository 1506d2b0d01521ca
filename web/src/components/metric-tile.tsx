// One figure with its title and icon, as the analytics and recommendation screens show them.
import type { LucideIcon } from 'lucide-react';
import { Card, CardContent, CardHeader, CardTitle } from './ui/card';

export function MetricTile({ title, icon: Icon, value }: { title: string; icon: LucideIcon; value: string }) {
  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-2 p-4 pb-2 sm:p-6 sm:pb-2">
        <CardTitle className="text-sm font-medium text-muted-foreground">{title}</CardTitle>
        <Icon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
      </CardHeader>
      <CardContent className="p-4 pt-0 sm:p-6 sm:pt-0">
        <p className="text-2xl font-bold sm:text-3xl" aria-label={`${title}: ${value}`}>
          {value}
        </p>
      </CardContent>
    </Card>
  );
}
