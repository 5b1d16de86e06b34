import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A modal dialog, the native one: focus moves into it and stays there, Escape closes it (through
 * `onClose`) and focus returns to the control that opened it. Render it to open it; unmount to close.
 */
export function Dialog({
  title,
  description,
  onClose,
  children,
  wide = false,
}: {
  title: ReactNode;
  description?: ReactNode;
  onClose: () => void;
  children: (ids: { title: string; description: string }) => ReactNode;
  /** Room for a larger form (programs, members); otherwise sized for a question or a short form. */
  wide?: boolean;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const ids = { title: `${id}-title`, description: `${id}-description` };

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);

  return (
    <dialog
      ref={dialog}
      aria-labelledby={ids.title}
      aria-describedby={description ? ids.description : undefined}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      className={`m-auto w-[calc(100%-2rem)] ${wide ? 'max-w-2xl' : 'max-w-lg'} max-h-[calc(100dvh-2rem)] rounded-2xl border border-border bg-surface p-0 text-fg backdrop:bg-black/50`}
    >
      <div className="flex flex-col gap-4 p-5">
        <h2 id={ids.title} className="text-xl font-bold [overflow-wrap:anywhere]">
          {title}
        </h2>
        {description && (
          <p id={ids.description} className="text-sm text-muted">
            {description}
          </p>
        )}
        {children(ids)}
      </div>
    </dialog>
  );
}
