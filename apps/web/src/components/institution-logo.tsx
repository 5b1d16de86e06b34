import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLowData } from '../lib/low-data.ts';

/**
 * An institution's logo, or the first letter of its name when it has none. In low-data mode the logo is
 * not downloaded until the person taps "Show image" under the letter; the name is always beside it in
 * the screen, so nothing is lost while it stays hidden.
 */
export function InstitutionLogo({
  src,
  name,
  className,
  letterClassName,
}: {
  src: string | null | undefined;
  name: string;
  /** Size and corners of the logo's box. */
  className: string;
  /** Background and size of the letter standing in for it. */
  letterClassName: string;
}) {
  const { t } = useTranslation();
  const { active } = useLowData();
  const [shown, setShown] = useState(false);
  const image = useRef<HTMLImageElement>(null);
  const [focusImage, setFocusImage] = useState(false);
  useEffect(() => {
    // The button that had the focus is gone: the image asked for takes it, so a keyboard stays in place.
    if (focusImage) image.current?.focus();
  }, [focusImage]);

  const letter = (
    <span
      aria-hidden="true"
      className={`grid shrink-0 place-items-center font-bold text-brand ${className} ${letterClassName}`}
    >
      {name.charAt(0)}
    </span>
  );
  if (!src) return letter;
  if (active && !shown) {
    return (
      // The letter stays outside the button, so the button's visible text is exactly the start of its name.
      <span className="flex shrink-0 flex-col items-center">
        {letter}
        <button
          type="button"
          // The label takes the colour of the text around it, readable on an institution's band as on a card.
          className="min-h-11 px-1 text-xs font-medium underline underline-offset-2 hover:no-underline"
          aria-label={t('low_data.show_logo', { name })}
          onClick={() => {
            setShown(true);
            setFocusImage(true);
          }}
        >
          {t('low_data.show_image')}
        </button>
      </span>
    );
  }
  return (
    <img
      ref={image}
      src={src}
      // Shown on request, the logo is what the person asked for; otherwise the name beside it says it all.
      alt={shown ? t('low_data.logo_of', { name }) : ''}
      tabIndex={shown ? -1 : undefined}
      className={`shrink-0 object-cover ${className}`}
    />
  );
}
