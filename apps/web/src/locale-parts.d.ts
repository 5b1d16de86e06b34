/** The catalogue parts served by the `kaminuza-locale-parts` plugin of vite.config.ts. */
declare module 'virtual:kaminuza-locale/*' {
  import type { ResourceLanguage } from 'i18next';

  const catalogue: ResourceLanguage;
  export default catalogue;
}

/** The CLDR names served by the `kaminuza-cldr-names` plugin (scripts/cldr-names-plugin.ts). */
declare module 'virtual:kaminuza-cldr-names/*' {
  const names: Record<'region' | 'currency' | 'language', Record<string, string>>;
  export default names;
}
