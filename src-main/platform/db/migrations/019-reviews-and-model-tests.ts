import type { Migration } from './types';

/**
 * Change reviews and model tests (issue 26). A review is a job; its row says which commit pair it
 * compared with which options and for whose rights, so a second request for the same pair finds it
 * (`review_key`). Model test runs are jobs too, found by the content they ran on (`fingerprint`: a
 * commit and any uncommitted edits); a build notes what its checks (its tests) found.
 */
export const reviewsAndModelTests: Migration = {
  version: 19,
  name: 'reviews-and-model-tests',
  up: `
    CREATE TABLE model_reviews (
      id TEXT PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
      deployment_id INTEGER NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
      base_ref TEXT NOT NULL,
      head_ref TEXT NOT NULL,
      base_commit TEXT NOT NULL,
      head_commit TEXT NOT NULL,
      -- JSON of the review options as asked.
      options TEXT NOT NULL,
      -- SHA-256 of the commits, the options and rights_key: equal keys, equal reviews.
      review_key TEXT NOT NULL,
      -- SHA-256 of the rights the queries ran with: only callers with the same rights (or admins) read it.
      rights_key TEXT NOT NULL,
      created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
      created_at TEXT NOT NULL
    );
    CREATE INDEX model_reviews_by_key ON model_reviews(deployment_id, review_key, created_at DESC);
    CREATE INDEX model_reviews_by_time ON model_reviews(deployment_id, created_at DESC, id DESC);

    -- A run of a repository's model tests; the id is its job's id (the job holds the per-test results).
    CREATE TABLE model_test_runs (
      id TEXT PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
      deployment_id INTEGER NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
      branch TEXT NOT NULL,
      commit_sha TEXT NOT NULL,
      -- SHA-256 of the commit and the uncommitted edits the run read: validation finds the run of what it checks.
      fingerprint TEXT NOT NULL,
      trigger TEXT NOT NULL CHECK (trigger IN ('manual', 'build')),
      build_id TEXT,
      -- passed, failed or none (no tests), once the run ended; JSON counts.
      outcome TEXT CHECK (outcome IN ('passed', 'failed', 'none')),
      summary TEXT,
      created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
      created_at TEXT NOT NULL
    );
    CREATE INDEX model_test_runs_by_fingerprint ON model_test_runs(deployment_id, fingerprint, created_at DESC);
    CREATE INDEX model_test_runs_by_time ON model_test_runs(deployment_id, created_at DESC, id DESC);

    -- What ran on a build after it compiled (JSON by check, e.g. {"modelTests": {…}}).
    ALTER TABLE model_builds ADD COLUMN checks TEXT;
  `,
};
