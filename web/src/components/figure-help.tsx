// The (i) beside a figure's title: says what the figure counts, on hover and on keyboard focus.
import { Info } from 'lucide-react';
import { Tooltip, TooltipContent, TooltipProvider, TooltipTrigger } from './ui/tooltip';

/** What a figure counts: its unit, shown under the number, and a sentence for the (i). */
export interface FigureDefinition {
  readonly counts: string;
  readonly explanation: string;
}

export function FigureHelp({ title, definition }: { title: string; definition: FigureDefinition }) {
  // Its own provider: a card may be drawn outside the app's (a test, an embedded view).
  return (
    <TooltipProvider>
      <Tooltip>
        <TooltipTrigger asChild>
          <button
            type="button"
            aria-label={`What ${title} counts`}
            className="inline-flex size-5 items-center justify-center rounded-full text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          >
            <Info className="size-3.5" aria-hidden />
          </button>
        </TooltipTrigger>
        <TooltipContent className="max-w-72 leading-relaxed">{definition.explanation}</TooltipContent>
      </Tooltip>
    </TooltipProvider>
  );
}
