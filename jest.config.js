// Three suites: unit (*.spec.ts, fakes only), integration (*.int-spec.ts, real PostgreSQL and
// Kafka) and end-to-end (*.e2e-spec.ts, the built apps as processes, over HTTP).
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [`^${alias}$`, `<rootDir>/${target}`]),
);

// ts-jest transpiles only (isolatedModules): the typecheck step of `npm test` checks types once,
// not per test file. allowJs lets it turn content-disposition's ES modules into CommonJS.
const transform = {
  '^.+\\.[tj]s$': ['ts-jest', { tsconfig: { isolatedModules: true, allowJs: true, module: 'commonjs' } }],
};

const project = (displayName, pattern, extra = {}) => ({
  displayName,
  rootDir: __dirname,
  testEnvironment: 'node',
  testMatch: [`<rootDir>/{apps,libs,tools}/**/${pattern}`],
  moduleNameMapper,
  transform,
  setupFiles: ['reflect-metadata'],
  // content-disposition 3 ships ES modules only; Jest on Node 20 cannot require those untransformed.
  transformIgnorePatterns: ['/node_modules/(?!content-disposition/)'],
  ...extra,
});

module.exports = {
  projects: [
    project('unit', '*.spec.ts', {
      setupFiles: ['reflect-metadata', '<rootDir>/libs/testing/src/jest/unit-setup.ts'],
      setupFilesAfterEnv: ['<rootDir>/libs/testing/src/jest/settled-matcher.ts'],
    }),
    project('integration', '*.int-spec.ts', {
      slowTestThreshold: 30,
      setupFilesAfterEnv: ['<rootDir>/libs/testing/src/jest/integration-setup.ts'],
    }),
    project('e2e', '*.e2e-spec.ts', {
      slowTestThreshold: 60,
      setupFilesAfterEnv: ['<rootDir>/libs/testing/src/jest/e2e-setup.ts'],
    }),
  ],
};
