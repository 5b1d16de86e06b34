import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import apiBoundaries from './apps/api/eslint.boundaries.js';
import webBoundaries from './apps/web/eslint.boundaries.js';

const NO_MESSAGE_DECISION =
  "Decide by the error's reason (hasReason from lib/api-client.ts), never by its message: messages are display texts.";

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      'bench/results/**',
      'apps/api/drizzle/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        { selector: 'TSEnumDeclaration', message: 'Use a const object or a union: enums are not erasable syntax.' },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // The browser's own Intl silently writes Kinyarwanda as English: the web writes through lib/intl.ts (ADR 028).
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/lib/intl.ts', '**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'TSEnumDeclaration', message: 'Use a const object or a union: enums are not erasable syntax.' },
        {
          selector:
            "NewExpression[callee.object.name='Intl'][callee.property.name=/^(DateTimeFormat|NumberFormat|DisplayNames|ListFormat)$/]",
          message:
            'Use dateTimeFormat, numberFormat, listFormat or displayName from lib/intl.ts: they know the languages the browser lacks.',
        },
        {
          selector: 'CallExpression[callee.property.name=/^toLocale(Date|Time)?String$/]',
          message: 'Use dateTimeFormat or numberFormat from lib/intl.ts: they know the languages the browser lacks.',
        },
        // Messages are the spec's texts for display and may be reworded; what happened is the error's reason
        // (ERROR_REASONS). Mapping a message to its translation (lib/error-messages.ts) only displays it.
        {
          selector:
            "BinaryExpression[operator=/^[!=]==?$/]:matches([left.property.name='message'], [right.property.name='message'], [left.expression.property.name='message'], [right.expression.property.name='message'])",
          message: NO_MESSAGE_DECISION,
        },
        {
          selector:
            "SwitchStatement:matches([discriminant.property.name='message'], [discriminant.expression.property.name='message'])",
          message: NO_MESSAGE_DECISION,
        },
        {
          selector:
            "CallExpression[callee.object.property.name='message'][callee.property.name=/^(includes|startsWith|endsWith|indexOf|match|search|localeCompare)$/]",
          message: NO_MESSAGE_DECISION,
        },
        {
          selector:
            "CallExpression[callee.property.name=/^(includes|indexOf|has|test)$/]:matches([arguments.0.property.name='message'], [arguments.0.expression.property.name='message'])",
          message: NO_MESSAGE_DECISION,
        },
      ],
    },
  },
  ...apiBoundaries,
  ...webBoundaries,
);
