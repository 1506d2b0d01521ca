// Copies text to the clipboard and reports "copied" for 2 seconds (spec section 9), long enough to
// notice and short enough that a second copy shows fresh feedback.
import { useCallback, useEffect, useRef, useState } from 'react';

export const copyFeedbackMs = 2000;

export function useCopyFeedback() {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const copy = useCallback(async (text: string): Promise<boolean> => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      return false;
    }
    setCopied(true);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = null;
      setCopied(false);
    }, copyFeedbackMs);
    return true;
  }, []);

  return { copied, copy };
}
