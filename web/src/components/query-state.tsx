// Shared loading and failure states for query-backed sections, so every screen says 'Loading...'
// the same way and shows why data is missing instead of an empty page.
import type { ReactNode } from 'react';
import { Card, CardContent } from './ui/card';

export function LoadingState({ className }: { className?: string }) {
  return (
    <p role="status" className={className ?? 'py-8 text-center text-muted-foreground'}>
      Loading...
    </p>
  );
}

export function ErrorState({ title, error, children }: { title: string; error?: unknown; children?: ReactNode }) {
  return (
    <Card role="alert">
      <CardContent className="flex flex-col items-center gap-2 p-8 text-center">
        <p className="font-medium">{title}</p>
        {error instanceof Error ? <p className="text-sm text-muted-foreground">{error.message}</p> : null}
        {children}
      </CardContent>
    </Card>
  );
}

export function EmptyState({ title, description, children }: { title: string; description?: string; children?: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-3 py-10 text-center">
      <p className="text-lg font-medium">{title}</p>
      {description ? <p className="max-w-md text-sm text-muted-foreground">{description}</p> : null}
      {children}
    </div>
  );
}
