// A minute a test by default: each integration suite starts an app against the real database
// and broker. A suite that needs longer says so with its own jest.setTimeout.
jest.setTimeout(60_000);
