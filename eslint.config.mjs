// Lint is part of `npm test`, with `prettier --check` for the formatting. The module-boundary rule
// is what keeps apps from importing each other and keeps libs/contracts free of framework and
// driver code; imports are sorted so a diff never reorders them by hand.
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const apps = ['checkout-gateway', 'card-processor', 'pos-ingest', 'outlet-service', 'webhook-dispatcher'];

function boundaries({ tests }) {
  const testing = tests ? ['type:testing'] : [];
  return {
    enforceBuildableLibDependency: false,
    allowCircularSelfDependency: true,
    depConstraints: [
      { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:contracts', 'type:platform', ...testing] },
      // Platform libs are tested from apps/platform-tests: libs/testing builds on them.
      { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:contracts', 'type:platform'] },
      { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:contracts', 'type:platform', 'type:testing'] },
      { sourceTag: 'type:tests', onlyDependOnLibsWithTags: ['type:contracts', 'type:platform', 'type:testing'] },
      {
        sourceTag: 'type:contracts',
        onlyDependOnLibsWithTags: ['type:contracts'],
        bannedExternalImports: ['@nestjs/*', 'typeorm', 'kafkajs', 'pg', 'fastify', '@fastify/*'],
      },
      ...apps.map((app) => ({ sourceTag: `scope:${app}`, onlyDependOnLibsWithTags: [`scope:${app}`, 'scope:shared'] })),
    ],
  };
}

export default tseslint.config(
  { ignores: ['**/node_modules/**', 'dist/**', '.data/**', 'artifacts/**', 'coverage/**', '.nx/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'simple-import-sort': simpleImportSort },
    rules: { 'simple-import-sort/imports': 'error' },
  },
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': ['error', boundaries({ tests: false })],
      // Decorator metadata (class-validator, TypeORM) needs explicit types, even inferable ones.
      '@typescript-eslint/no-inferrable-types': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Habits that catch async money bugs: a promise nobody awaits loses its failure, one passed
    // where a callback returns nothing runs unawaited, and a switch over a union that misses a
    // member (a new status, a new event) falls through silently. Type-aware: it reads the types.
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  {
    // Tests, and only tests, may use the factories and helpers of libs/testing.
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', 'apps/*/src/testing/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': ['error', boundaries({ tests: true })] },
  },
  {
    files: ['**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // Modules served to browsers as they are (the hosted checkout page).
    files: ['apps/*/src/**/public/*.js'],
    languageOptions: { sourceType: 'module', globals: { ...globals.browser } },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // Last: formatting is Prettier's alone.
  prettier,
  {
    // After Prettier's config, which turns curly off: a body on its own line has braces, so a
    // second statement added to it cannot escape the condition. (Prettier never removes them.)
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    rules: { curly: ['error', 'multi-line'] },
  },
);
