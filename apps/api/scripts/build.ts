/**
 * The api as production runs it (ADR 046): `src/server.ts` and everything it imports in one ES module,
 * `dist/server.mjs`, so a starting process resolves no module paths and strips no types. One file: split
 * into chunks, a CommonJS package imported with `import()` (the dev mailbox's parser) lost its named exports. Node resolves a package's module by reading its package.json, and
 * does so again for every file of the package; for drizzle-orm (130 KB of "exports", some 400 files) that
 * alone left the started api holding 100 MB more than it needed.
 *
 * Kept outside the bundle: packages with native code or files of their own they find next to themselves
 * (PGlite's WebAssembly, sharp and argon2's binaries, pdfkit's fonts, the API reference's page). Our own
 * modules that find files next to themselves (migrations, place data, the repository's root) still find
 * them: their `import.meta.url` is their source file's address, relative to the bundle.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, stop, type Plugin } from 'esbuild';

const apiRoot = fileURLToPath(new URL('..', import.meta.url));
const sourceDir = path.join(apiRoot, 'src');
export const API_DIST = path.join(apiRoot, 'dist');
export const API_SERVER_BUNDLE = path.join(API_DIST, 'server.mjs');

/**
 * Node's options for the api in production (the start script and the image's NODE_OPTIONS carry the same;
 * a test holds them together). They bound V8's heap for the small server a university shares with
 * PostgreSQL, whatever the machine V8 finds itself on: the old generation's limit (which also keeps V8
 * from letting it grow to several times what is live before collecting it) and 16 MB semi-spaces for the
 * young generation. Measured in the deadline-day bench: the young generation's bound is what holds the
 * peak (V8's defaults on this machine: 640–740 MB; the old limit alone: 416 MB; both: 330 MB), and
 * 16 MB semi-spaces cost the submit's p99 less than 8 MB ones (ADR 046). Raise them on a server of its own.
 */
export const PRODUCTION_NODE_OPTIONS = ['--max-old-space-size=512', '--max-semi-space-size=16'];

const EXTERNAL = [
  '@electric-sql/pglite',
  '@electric-sql/pglite/*',
  '@node-rs/argon2',
  'sharp',
  'pdfkit',
  '@fastify/swagger-ui',
  // The dev mailbox's server and parser: development dependencies, imported only when the mailbox is on
  // (never in production, whose image does not have them).
  'smtp-server',
  'mailparser',
  // Optional peers some packages try and do without.
  'pg-native',
  'bufferutil',
  'utf-8-validate',
];

/** Our modules' `import.meta.url`, as it would be unbundled: the source file's, found from the bundle's. */
const sourceFileUrls: Plugin = {
  name: 'source-file-urls',
  setup(context) {
    context.onLoad({ filter: /\.ts$/ }, async ({ path: file }) => {
      const contents = await readFile(file, 'utf8');
      if (!file.startsWith(sourceDir + path.sep) || !contents.includes('import.meta.url')) return undefined;
      const fromBundle = path.relative(API_DIST, file).split(path.sep).join('/');
      return {
        contents: contents.replaceAll(
          'import.meta.url',
          `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`,
        ),
        loader: 'ts',
      };
    });
  },
};

export async function buildApi(): Promise<void> {
  await rm(API_DIST, { recursive: true, force: true });
  await build({
    absWorkingDir: apiRoot,
    entryPoints: { server: 'src/server.ts' },
    outdir: API_DIST,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    external: EXTERNAL,
    // Smaller source for V8 to hold (it keeps every script's text); ASCII only, so that text is stored
    // one byte a character. Identifiers are not renamed, so stack traces keep their function names; only
    // names that clash between modules get a suffix (APIError3). No keepNames: it would wrap every
    // function created at run time in a call that redefines its name, 5% of a session read's CPU.
    minifyWhitespace: true,
    minifySyntax: true,
    charset: 'ascii',
    legalComments: 'none',
    sourcemap: 'linked',
    // The CommonJS packages inside call require() for Node's own modules.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    plugins: [sourceFileUrls],
    logLevel: 'warning',
  });
  // esbuild's service process would otherwise stay beside a caller that goes on (the bench), holding memory.
  await stop();
  await assertAscii();
}

/**
 * V8 keeps a script's text one byte a character only when all of it is ASCII; one other character (esbuild
 * leaves regular expressions as written) doubles the memory the whole bundle's text takes. Write it as an
 * escape (`\u2019`) instead.
 */
async function assertAscii(): Promise<void> {
  for (const name of await readdir(API_DIST)) {
    if (!name.endsWith('.mjs')) continue;
    const text = await readFile(path.join(API_DIST, name), 'latin1');
    let at = 0;
    while (at < text.length && text.charCodeAt(at) <= 0x7f) at++;
    if (at < text.length)
      throw new Error(`${name} has a character outside ASCII: "${text.slice(Math.max(0, at - 40), at + 10)}"`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  await buildApi();
  console.log(
    `api built in ${Math.round(performance.now() - started)} ms: ${path.relative(process.cwd(), API_SERVER_BUNDLE)}`,
  );
}
