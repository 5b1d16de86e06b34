import type { ReactNode } from 'react';

/** The frame of the account screens: a centred card with the page's one heading. */
export function AuthCard({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <section className="mx-auto w-full max-w-xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
      {intro && <p className="mt-3 text-muted">{intro}</p>}
      <div className="mt-6 flex flex-col gap-5 rounded-2xl border border-border bg-surface p-5 sm:p-6">{children}</div>
    </section>
  );
}
