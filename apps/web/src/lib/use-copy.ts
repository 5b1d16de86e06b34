import { useCallback, useEffect, useRef, useState } from 'react';
import { COPIED_FEEDBACK_MS } from '@kaminuza/shared';

/**
 * Copies text to the clipboard and says so: `copied` stays true for COPIED_FEEDBACK_MS (the spec's
 * "Copied!" for 2 seconds). When the browser refuses the clipboard (an insecure context, a denied
 * permission), `refused` is set and the element given, if any, is selected so the text can be copied by hand.
 */
export function useCopy() {
  const [copied, setCopied] = useState(false);
  const [refused, setRefused] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = useCallback(async (text: string, selectOnRefusal?: Element | null) => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      if (selectOnRefusal) window.getSelection()?.selectAllChildren(selectOnRefusal);
      setRefused(true);
      return;
    }
    setRefused(false);
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_FEEDBACK_MS);
  }, []);

  return { copied, refused, copy };
}
