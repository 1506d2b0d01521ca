// A sample of the consent banner as visitors will see it, with the chosen position and theme. Its
// buttons act like the real ones: the banner closes and says which choice would be recorded.
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import type { BannerPosition, BannerTheme } from '../../lib/snippet';

export function BannerPreview({
  companyName,
  primaryColor,
  logoUrl,
  position,
  theme,
}: {
  companyName: string;
  /** The branding's colour of the Accept All button (#rrggbb). */
  primaryColor: string;
  logoUrl?: string | null;
  position: BannerPosition;
  theme: BannerTheme;
}) {
  const [choice, setChoice] = useState<'accepted' | 'declined' | null>(null);
  const dark = theme === 'dark';

  return (
    <div
      className="relative flex h-72 flex-col overflow-hidden rounded-lg border bg-gradient-to-b from-slate-50 to-slate-100"
      aria-label="Banner preview"
      role="region"
    >
      <div className="space-y-2 p-6" aria-hidden>
        <div className="h-4 w-1/3 rounded bg-slate-300" />
        <div className="h-3 w-2/3 rounded bg-slate-200" />
        <div className="h-3 w-1/2 rounded bg-slate-200" />
      </div>
      {choice === null ? (
        <div
          className={cn(
            'absolute inset-x-3 flex flex-col gap-3 rounded-lg p-4 shadow-lg sm:flex-row sm:items-center sm:justify-between',
            position === 'top' ? 'top-3' : 'bottom-3',
            dark ? 'bg-slate-900 text-slate-100' : 'border bg-white text-slate-900',
          )}
        >
          <p className="flex items-center gap-2 text-sm">
            {logoUrl ? <img src={logoUrl} alt="" className="h-6 w-auto max-w-24 object-contain" /> : null}
            <span>
              <span className="font-semibold">{companyName}</span> uses cookies to improve your experience and, with your
              consent, to get in touch. You can change your choice at any time.
            </span>
          </p>
          <div className="flex shrink-0 gap-2">
            <Button size="sm" variant="outline" className={dark ? 'border-slate-600 bg-transparent text-slate-100 hover:bg-slate-800 hover:text-slate-100' : undefined} onClick={() => setChoice('declined')}>
              Decline
            </Button>
            <Button size="sm" className="text-white" style={{ backgroundColor: primaryColor }} onClick={() => setChoice('accepted')}>
              Accept All
            </Button>
          </div>
        </div>
      ) : (
        <div className="absolute inset-x-3 bottom-3 flex items-center justify-between gap-3 rounded-lg border bg-white p-3 text-sm">
          <span>
            Preview: the visitor {choice === 'accepted' ? 'accepted' : 'declined'}; the banner closes and the choice is
            recorded.
          </span>
          <Button size="sm" variant="outline" onClick={() => setChoice(null)}>
            Show banner again
          </Button>
        </div>
      )}
    </div>
  );
}
