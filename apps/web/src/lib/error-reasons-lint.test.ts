// @vitest-environment node
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The web decides what happened by an error's reason, never its message (eslint.config.js): each case
 * lints a real screen with one function added, as `npm run lint` does, and counts the refusals.
 */
const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const screen = `${repo}apps/web/src/features/applications/components/form-screen.tsx`;
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: repo });
});

async function refusals(added: string): Promise<number> {
  const code = `${readFileSync(screen, 'utf8')}\n${added}\n`;
  const [result] = await eslint.lintText(code, { filePath: screen });
  return (result?.messages ?? []).filter(
    (message) => message.ruleId === 'no-restricted-syntax' && message.message.includes("error's reason"),
  ).length;
}

describe('deciding by an error message', () => {
  it('accepts the screen as it is and a decision by reason', async () => {
    expect(await refusals('export const closed = (error: unknown) => hasReason(error, "cycle_closed");')).toBe(0);
  });

  it('accepts reading a message to display it or check its type', async () => {
    expect(
      await refusals(
        'export const shown = (error: Error) => (typeof error.message === "string" ? messageKey(error.message) : null);',
      ),
    ).toBe(0);
  });

  it('refuses comparing a message, switching on it, searching it or looking it up', async () => {
    expect(await refusals('export const a = (error: Error) => error.message === "Closed";')).toBe(1);
    expect(await refusals('export const b = (error?: Error) => "Closed" !== error?.message;')).toBe(1);
    expect(await refusals('export function c(error: Error) { switch (error.message) { default: return 1; } }')).toBe(1);
    expect(await refusals('export const d = (error: Error) => error.message.includes("closed");')).toBe(1);
    expect(await refusals('export const e = (error: Error, known: string[]) => known.includes(error.message);')).toBe(
      1,
    );
  });
});
