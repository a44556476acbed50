// Lint is part of `npm test`. The module-boundary rule is what keeps apps from importing
// each other and keeps libs/contracts free of framework and driver code.
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

const apps = ['checkout-gateway', 'card-processor', 'pos-ingest', 'outlet-service', 'webhook-dispatcher'];

export default tseslint.config(
  { ignores: ['**/node_modules/**', 'dist/**', '.data/**', 'artifacts/**', 'coverage/**', '.nx/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:contracts', 'type:platform', 'type:testing'] },
            { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:contracts', 'type:platform'] },
            { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:contracts', 'type:platform'] },
            {
              sourceTag: 'type:contracts',
              onlyDependOnLibsWithTags: ['type:contracts'],
              bannedExternalImports: ['@nestjs/*', 'typeorm', 'kafkajs', 'pg', 'fastify', '@fastify/*'],
            },
            ...apps.map((app) => ({ sourceTag: `scope:${app}`, onlyDependOnLibsWithTags: [`scope:${app}`, 'scope:shared'] })),
          ],
        },
      ],
      // Decorator metadata (class-validator, TypeORM) needs explicit types, even inferable ones.
      '@typescript-eslint/no-inferrable-types': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    files: ['tools/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', fetch: 'readonly', AbortSignal: 'readonly' } },
  },
);
