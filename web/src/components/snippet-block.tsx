// An embed snippet with its copy button: the button reads 'Copied!' for 2 seconds and a toast
// confirms (spec section 8); a refused clipboard gets an error toast instead of silence.
import { Check, Copy } from 'lucide-react';
import { useCopyFeedback } from '../lib/use-copy-feedback';
import { useToast } from './toaster';
import { Button } from './ui/button';

export function SnippetBlock({
  snippet,
  label = 'Embed code',
  copiedDescription = 'Website body code copied to clipboard.',
}: {
  snippet: string;
  label?: string;
  /** The toast's text after a copy; the spec's words for the embed snippet unless told otherwise. */
  copiedDescription?: string;
}) {
  const { copied, copy } = useCopyFeedback();
  const { toast } = useToast();

  async function copySnippet() {
    if (await copy(snippet)) {
      toast({ title: 'Copied!', description: copiedDescription });
    } else {
      toast({
        title: 'Error',
        description: 'Could not copy to the clipboard. Select the code and copy it by hand.',
        variant: 'destructive',
      });
    }
  }

  return (
    <div className="space-y-2">
      <div className="flex items-center justify-between gap-2">
        <span className="text-sm font-medium">{label}</span>
        <Button size="sm" variant="outline" onClick={() => void copySnippet()} aria-label={copied ? 'Copied!' : `Copy ${label.toLowerCase()}`}>
          {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
          {copied ? 'Copied!' : 'Copy'}
        </Button>
      </div>
      {/* Wrapped rather than scrolled: the whole snippet is visible on any screen. */}
      <pre className="rounded-md bg-slate-900 p-3 text-xs wrap-anywhere whitespace-pre-wrap text-slate-100">
        <code>{snippet}</code>
      </pre>
    </div>
  );
}
