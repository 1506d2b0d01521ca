// What a form says after it was sent: why it failed (an alert) or what happened (a status). Nothing
// when there is nothing to say.
import type { ReactNode } from 'react';

const tones = {
  failure: { role: 'alert', className: 'border-destructive/40 bg-destructive/10 text-destructive' },
  notice: { role: 'status', className: 'border-green-300 bg-green-50 text-green-900' },
} as const;

export function FormMessage({ tone, children }: { tone: keyof typeof tones; children: ReactNode }) {
  if (children === null || children === undefined || children === '') return null;
  return (
    <p role={tones[tone].role} className={`rounded-md border p-3 text-sm ${tones[tone].className}`}>
      {children}
    </p>
  );
}
