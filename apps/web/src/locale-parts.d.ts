/** The catalogue parts served by the `kaminuza-locale-parts` plugin of vite.config.ts. */
declare module 'virtual:kaminuza-locale/*' {
  import type { ResourceLanguage } from 'i18next';

  const catalogue: ResourceLanguage;
  export default catalogue;
}
