import type { ReactNode } from 'react';

/** The frame of the institution account screens: a centred card under the page's one heading. */
export function PartnerCard({
  title,
  intro,
  wide = false,
  children,
}: {
  title: string;
  intro?: ReactNode;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <section className={`mx-auto w-full px-4 py-10 sm:py-14 ${wide ? 'max-w-3xl' : 'max-w-xl'}`}>
      <h1 className="text-3xl font-bold tracking-tight break-words">{title}</h1>
      {intro && <p className="mt-3 text-muted">{intro}</p>}
      <div className="mt-6 flex flex-col gap-5 rounded-2xl border border-border bg-surface p-5 sm:p-6">{children}</div>
    </section>
  );
}
