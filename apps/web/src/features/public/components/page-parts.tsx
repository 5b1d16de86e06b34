import type { ReactNode } from 'react';

/** The frame of an information page: its only <h1>, an optional introduction, then the sections. */
export function InfoPage({
  title,
  intro,
  notice,
  children,
}: {
  title: string;
  intro?: string;
  notice?: string;
  children?: ReactNode;
}) {
  return (
    <article className="prose-page py-12 sm:py-16">
      <h1 className="text-3xl font-bold tracking-tight break-words sm:text-4xl">{title}</h1>
      {notice && <Notice>{notice}</Notice>}
      {intro && <p className="mt-4 text-lg text-muted">{intro}</p>}
      {children}
    </article>
  );
}

export function InfoSection({ id, title, children }: { id?: string; title: string; children: ReactNode }) {
  return (
    <section id={id} className="mt-12 scroll-mt-6">
      <h2 className="text-2xl font-bold tracking-tight break-words">{title}</h2>
      <div className="mt-4 space-y-4 leading-relaxed">{children}</div>
    </section>
  );
}

export function SubSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div>
      <h3 className="text-lg font-semibold break-words">{title}</h3>
      <div className="mt-1 space-y-2 leading-relaxed">{children}</div>
    </div>
  );
}

export function BulletList({ items }: { items: string[] }) {
  return (
    <ul className="list-disc space-y-2 pl-6 marker:text-brand">
      {items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );
}

export function Notice({ children }: { children: ReactNode }) {
  return (
    <p
      role="note"
      className="mt-6 rounded-lg border border-border border-l-4 border-l-accent bg-surface-muted p-4 text-sm"
    >
      {children}
    </p>
  );
}

/** A mailto link whose text is the address itself; long addresses wrap instead of overflowing. */
export function MailLink({ address }: { address: string }) {
  return (
    <a href={`mailto:${address}`} className="link wrap-anywhere">
      {address}
    </a>
  );
}

/** Links that lead on from a page, laid out as a row of buttons that wraps on small screens. */
export function NextLinks({ children }: { children: ReactNode }) {
  return <div className="mt-8 flex flex-wrap gap-3">{children}</div>;
}
