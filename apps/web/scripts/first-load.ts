/**
 * How the app's first load is cut into files and named in the page, for a slow network (ADR 043).
 *
 * On slow 3G every request waits about 2 s before its first byte, and a browser sends six requests at a
 * time per server: the rest wait for a free connection. So the first screen's code should come in few
 * files, named in the page's head (not discovered once the app's script runs), largest first.
 *
 * - Chunks: left alone, the bundler splits what the app's script shares with lazy screens into one chunk
 *   per combination of importers, most under 2 KB. Groups gather the modules the app's script loads up
 *   front (bundler tag `$initial`): the libraries in one file, our own modules in another, except those the
 *   static public pages' script also loads, which keep their own small chunk so those pages never download
 *   the app's. The screens of `FIRST_SCREENS` get one chunk for their code.
 * - Order: the page's module preloads, largest first.
 * - Per screen: `dist/.vite/first-screen-preloads.json` lists, for each of `FIRST_SCREENS` and language,
 *   the files that screen's first render needs beyond the app's script; the server names them in the page.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { LANGUAGES } from '@kaminuza/shared/constants';
import { FIRST_SCREEN_PRELOADS_FILE, type FirstScreenPreloads } from '@kaminuza/shared/routes';

/**
 * The screens a visit most often opens cold (the installed app's start, where sign-in lands): the modules
 * of their first render, and the parts of the texts it needs.
 */
export const FIRST_SCREENS: Readonly<Record<string, { modules: readonly string[]; texts: readonly string[] }>> = {
  '/home': {
    modules: ['src/app/layouts/student-shell.tsx', 'src/features/home/components/home-page.tsx'],
    texts: ['core'],
  },
};

/** What the table needs of each output chunk (Rolldown's OutputChunk and Vite's metadata on it). */
export interface BuiltChunk {
  fileName: string;
  moduleIds: readonly string[];
  imports: readonly string[];
  isEntry: boolean;
  css: readonly string[];
}

interface CodeSplittingGroup {
  name: string;
  test: (id: string) => boolean;
  tags?: ['$initial'];
  priority: number;
}

/** The chunk holding the code of the `FIRST_SCREENS` (their shell and screens). */
export const FIRST_SCREENS_CHUNK = 'first-screens';

const NODE_MODULES = /[\\/]node_modules[\\/]/;
const APP_ENTRY = /[\\/]src[\\/]main\.tsx$/;

/**
 * The files each first screen needs beyond the app's script, per language, largest first. Chunks are
 * found by the modules they hold: a grouped module is no longer its own entry in Vite's manifest.
 */
export function firstScreenPreloads(
  chunks: readonly BuiltChunk[],
  size: (file: string) => number,
): FirstScreenPreloads {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const holding = (module: string) => {
    const chunk = chunks.find((candidate) => candidate.moduleIds.some((id) => id.endsWith(module)));
    if (!chunk) throw new Error(`No chunk holds ${module}: update FIRST_SCREENS`);
    return chunk;
  };
  const closure = (roots: readonly BuiltChunk[]) => {
    const seen = new Set<BuiltChunk>();
    const visit = (chunk: BuiltChunk) => {
      if (seen.has(chunk)) return;
      seen.add(chunk);
      chunk.imports.forEach((file) => {
        const imported = byFile.get(file);
        if (imported) visit(imported);
      });
    };
    roots.forEach(visit);
    return seen;
  };
  const shell = closure([holding('src/main.tsx')]);
  const shellStyles = new Set([...shell].flatMap((chunk) => chunk.css));
  const preloads: FirstScreenPreloads = {};
  for (const [path, { modules, texts }] of Object.entries(FIRST_SCREENS)) {
    preloads[path] = Object.fromEntries(
      LANGUAGES.map((language) => {
        const roots = [
          ...modules.map((module) => holding(`/${module}`)),
          ...texts.map((part) => holding(`virtual:kaminuza-locale/${language}/${part}`)),
        ];
        const needed = [...closure(roots)].filter((chunk) => !shell.has(chunk));
        return [
          language,
          {
            scripts: needed.sort((a, b) => size(b.fileName) - size(a.fileName)).map((chunk) => `/${chunk.fileName}`),
            styles: [...new Set(needed.flatMap((chunk) => chunk.css))]
              .filter((css) => !shellStyles.has(css))
              .map((css) => `/${css}`),
          },
        ];
      }),
    );
  }
  return preloads;
}

/** Moves the page's module preloads before its script, largest first. */
export function sortModulePreloads(html: string, size: (href: string) => number): string {
  const preloads = [...html.matchAll(/[ \t]*<link rel="modulepreload"[^>]*href="([^"]+)"[^>]*>\n?/g)];
  if (preloads.length === 0 || !/<script type="module"/.test(html)) return html;
  const sorted = preloads.sort((a, b) => size(b[1]!) - size(a[1]!)).map((match) => match[0]);
  const rest = sorted.reduce((text, tag) => text.replace(tag, ''), html);
  const at = rest.search(/[ \t]*<script type="module"/);
  return `${rest.slice(0, at)}${sorted.join('')}${rest.slice(at)}`;
}

/**
 * `publicEntry` matches the static public pages' script. Returns the plugin and the chunk groups for
 * `build.rolldownOptions.output.codeSplitting`.
 */
export function firstLoad(publicEntry: RegExp): { plugin: Plugin; groups: CodeSplittingGroup[] } {
  // Read once the build has parsed every module (buildEnd), before the groups are tested.
  const publicModules = new Set<string>();
  const isEntry = (id: string) => publicEntry.test(id) || APP_ENTRY.test(id);
  const firstScreenModules = Object.values(FIRST_SCREENS).flatMap(({ modules }) => modules);
  let outDir = '';
  let ssr = false;

  const plugin: Plugin = {
    name: 'kaminuza-first-load',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
      ssr = Boolean(config.build.ssr);
    },
    buildEnd() {
      publicModules.clear();
      const visit = (id: string) => {
        if (publicModules.has(id)) return;
        publicModules.add(id);
        this.getModuleInfo(id)?.importedIds.forEach(visit);
      };
      const entry = [...this.getModuleIds()].find((id) => publicEntry.test(id));
      if (entry) visit(entry);
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        return sortModulePreloads(html, (href) => {
          const chunk = context.bundle?.[href.replace(/^\//, '')];
          return chunk?.type === 'chunk' ? chunk.code.length : 0;
        });
      },
    },
    writeBundle(_options, bundle) {
      if (ssr) return;
      const chunks: BuiltChunk[] = Object.values(bundle).flatMap((output) =>
        output.type === 'chunk'
          ? [
              {
                fileName: output.fileName,
                moduleIds: output.moduleIds,
                imports: output.imports,
                isEntry: output.isEntry,
                css: [...(output.viteMetadata?.importedCss ?? [])],
              },
            ]
          : [],
      );
      const size = (file: string) => {
        const output = bundle[file];
        return output?.type === 'chunk' ? output.code.length : 0;
      };
      writeFileSync(join(outDir, FIRST_SCREEN_PRELOADS_FILE), JSON.stringify(firstScreenPreloads(chunks, size)));
    },
  };

  const groups: CodeSplittingGroup[] = [
    {
      name: 'public-shared',
      test: (id) => publicModules.has(id) && !isEntry(id),
      tags: ['$initial'],
      priority: 30,
    },
    {
      name: 'framework',
      test: (id) => NODE_MODULES.test(id) && !publicModules.has(id),
      tags: ['$initial'],
      priority: 20,
    },
    {
      name: 'app-initial',
      test: (id) => /\.tsx?$/.test(id) && !NODE_MODULES.test(id) && !isEntry(id) && !publicModules.has(id),
      tags: ['$initial'],
      priority: 10,
    },
    {
      // With what they import that the app's script does not: staff shells share a little of it.
      name: FIRST_SCREENS_CHUNK,
      test: (id) => firstScreenModules.some((module) => id.endsWith(`/${module}`)),
      priority: 5,
    },
  ];
  return { plugin, groups };
}
