import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface TabItem<T extends string> {
  id: T;
  label: ReactNode;
}

interface TabsProps<T extends string> {
  /** The tablist's accessible name. */
  label: string;
  items: ReadonlyArray<TabItem<T>>;
  value: T;
  onChange: (id: T) => void;
  /** The selected tab's panel. */
  children: ReactNode;
  /** Extra classes for the tablist, e.g. to let a scrolling tab bar bleed to the screen's edges. */
  listClassName?: string;
}

/**
 * Tabs as the WAI-ARIA pattern has them (automatic activation): a tablist of tabs with a roving tabindex,
 * arrow keys move between tabs and select them, Home and End go to the first and last. The caller keeps the
 * selected tab (often in the address), and only the selected panel is rendered. The bar scrolls sideways when
 * the tabs do not fit, so long tab lists stay usable at 360 px.
 */
export function Tabs<T extends string>({ label, items, value, onChange, children, listClassName = '' }: TabsProps<T>) {
  const base = useId();
  const refs = useRef(new Map<string, HTMLButtonElement>());
  const tabId = (id: string) => `${base}-tab-${id}`;
  const panelId = (id: string) => `${base}-panel-${id}`;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = items.findIndex((item) => item.id === value);
    const moves: Partial<Record<string, number>> = {
      ArrowRight: (index + 1) % items.length,
      ArrowLeft: (index - 1 + items.length) % items.length,
      Home: 0,
      End: items.length - 1,
    };
    const target = items[moves[event.key] ?? -1];
    if (!target) return;
    event.preventDefault();
    onChange(target.id);
    refs.current.get(target.id)?.focus();
  };

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <div
        role="tablist"
        aria-label={label}
        onKeyDown={onKeyDown}
        className={`relative flex gap-1 overflow-x-auto border-b border-border [scrollbar-width:thin] ${listClassName}`}
      >
        {items.map((item) => {
          const selected = item.id === value;
          return (
            <button
              key={item.id}
              ref={(node) => {
                if (node) refs.current.set(item.id, node);
                else refs.current.delete(item.id);
              }}
              type="button"
              role="tab"
              id={tabId(item.id)}
              aria-selected={selected}
              aria-controls={selected ? panelId(item.id) : undefined}
              tabIndex={selected ? 0 : -1}
              onClick={() => onChange(item.id)}
              className={`-mb-px flex min-h-11 shrink-0 items-center gap-2 border-b-2 px-3 text-sm font-semibold whitespace-nowrap ${selected ? 'border-brand text-brand' : 'border-transparent text-muted hover:text-fg'}`}
            >
              {item.label}
            </button>
          );
        })}
      </div>
      <div
        role="tabpanel"
        id={panelId(value)}
        aria-labelledby={tabId(value)}
        tabIndex={0}
        className="focus:outline-none focus-visible:ring-2 focus-visible:ring-brand"
      >
        {children}
      </div>
    </div>
  );
}
