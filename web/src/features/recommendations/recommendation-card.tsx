// One recommendation as the report gives it: severity, type, what and why, the action items, the
// expected gain, effort and difficulty, and the metrics it rests on (with their values where known).
import { Link } from '@tanstack/react-router';
import { Settings } from 'lucide-react';
import type { ReactNode } from 'react';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { cn } from '../../lib/cn';
import { difficultyLabels, getMetricLabel, settingsMetrics, severityClasses, severityLabels, typeLabels } from './labels';
import type { Recommendation, RecommendationSeverity } from './queries';

export function SeverityBadge({ severity, className, children }: { severity: RecommendationSeverity; className?: string; children?: ReactNode }) {
  return <Badge className={cn(severityClasses[severity], className)}>{children ?? severityLabels[severity]}</Badge>;
}

export function RecommendationCard({
  recommendation,
  metricValues,
  websiteId,
}: {
  recommendation: Recommendation;
  /** Display values of metrics, by metric name. */
  metricValues: Readonly<Record<string, string>>;
  websiteId: string;
}) {
  const titleId = `recommendation-${recommendation.id}`;
  const restsOnSettings = recommendation.relatedMetrics.some((metric) => settingsMetrics.has(metric));
  return (
    <Card role="article" aria-labelledby={titleId} className="min-w-0">
      <CardHeader className="gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <SeverityBadge severity={recommendation.severity} />
          <Badge variant="outline">{typeLabels[recommendation.type]}</Badge>
        </div>
        <CardTitle id={titleId} className="leading-snug">
          {recommendation.title}
        </CardTitle>
        <CardDescription>{recommendation.description}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-5">
        <p className="text-sm">
          <span className="font-medium">Impact: </span>
          {recommendation.impact}
        </p>
        <div>
          <h4 className="mb-2 text-sm font-medium">Action items</h4>
          <ol className="list-decimal space-y-1 pl-5 text-sm">
            {recommendation.actionItems.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ol>
        </div>
        <dl className="grid gap-3 rounded-md bg-muted/50 p-3 text-sm sm:grid-cols-3">
          <div>
            <dt className="text-xs text-muted-foreground">Estimated improvement</dt>
            <dd className="font-medium">{recommendation.estimatedImprovement}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">Time to implement</dt>
            <dd className="font-medium">{recommendation.timeToImplement}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">Difficulty</dt>
            <dd className="font-medium">{difficultyLabels[recommendation.implementationDifficulty]}</dd>
          </div>
        </dl>
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          <div>
            <h4 className="mb-2 text-xs text-muted-foreground">Based on</h4>
            <ul className="flex flex-wrap gap-2" aria-label="Related metrics">
              {recommendation.relatedMetrics.map((metric) => (
                <li key={metric} className="rounded-md border bg-background px-2 py-1 text-xs wrap-anywhere">
                  {getMetricLabel(metric)}
                  {metricValues[metric] !== undefined ? <span className="font-semibold">: {metricValues[metric]}</span> : null}
                </li>
              ))}
            </ul>
          </div>
          {restsOnSettings ? (
            <Button asChild variant="outline" size="sm">
              <Link to="/websites/$websiteId/banner" params={{ websiteId }}>
                <Settings aria-hidden />
                Open website settings
              </Link>
            </Button>
          ) : null}
        </div>
      </CardContent>
    </Card>
  );
}
