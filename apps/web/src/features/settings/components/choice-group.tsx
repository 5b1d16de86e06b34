import { useId } from 'react';

export interface Choice<T extends string> {
  value: T;
  label: string;
  /** The language the label is written in, when it is not the page's. */
  lang?: string;
}

/** A set of radio buttons choosing one value, labelled as a group; big enough to tap on a phone. */
export function ChoiceGroup<T extends string>({
  legend,
  choices,
  value,
  onChange,
}: {
  legend: string;
  choices: readonly Choice<T>[];
  value: T;
  onChange: (value: T) => void;
}) {
  const id = useId();
  return (
    <fieldset role="radiogroup" aria-labelledby={`${id}-legend`} className="flex min-w-0 flex-col gap-2">
      <legend id={`${id}-legend`} className="sr-only">
        {legend}
      </legend>
      <div className="flex flex-wrap gap-2">
        {choices.map((choice) => (
          <label
            key={choice.value}
            className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border border-border px-3 has-checked:border-brand has-checked:bg-surface-muted"
          >
            <input
              type="radio"
              name={id}
              value={choice.value}
              checked={value === choice.value}
              onChange={() => onChange(choice.value)}
              className="size-5 shrink-0 accent-brand"
            />
            <span lang={choice.lang}>{choice.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
