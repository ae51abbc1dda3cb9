// The service's stable problem codes in plain words: what happened (a phrase that follows "… failed:")
// and what to do. One table for every screen (toShownError reads it); the code, status and the
// service's own words stay behind "Details". test/unit/renderer/plain-problems.test.ts derives every
// code the service can send from its source and fails when one has no words here (or in the family
// rules at the bottom).

export interface PlainCode {
  /** What happened, as a phrase: "the branch already exists". */
  what: string;
  /** What to do about it, as one or two sentences. */
  fix: string;
  /**
   * Show the service's own sentence too (before the fix): its detail names the particulars (which
   * views, which file, the engine's message) and is already written for people.
   */
  keepDetail?: boolean;
}

type Entry = [what: string, fix: string, keepDetail?: 'keep'];

const RELOAD = 'Reload the screen; someone may have deleted or renamed it meanwhile.';
const TRY_LATER = 'Try again in a moment.';
const ASK_ADMIN = 'Ask an admin for the role or policy this needs.';
const CHECK_SOURCE = 'Check the data source’s settings under Deployments › Environment variables.';

const ENTRIES: Record<string, Entry> = {
  // ---- every area (HTTP, credentials, paging) -------------------------------------------------
  VALIDATION_FAILED: ['some values are not accepted', 'Correct the fields marked below, then try again.'],
  BAD_REQUEST: ['the request was not understood', 'Reload the screen and try again.', 'keep'],
  MALFORMED_JSON: ['the request was not understood', 'Reload the screen and try again.'],
  UNAUTHENTICATED: ['you are signed out', 'Sign in again, then repeat what you did.'],
  TOKEN_REVOKED: ['your sign-in was ended', 'Sign in again, then repeat what you did.'],
  FORBIDDEN: ['you do not have permission for this', ASK_ADMIN],
  EMBED_SESSION_REFUSED: ['an embedded session cannot do this', 'Sign in to Drydock itself to do it.'],
  DEPLOYMENT_OUT_OF_SCOPE: ['this credential belongs to another deployment', 'Use a credential of this deployment, or your own sign-in.'],
  TOKEN_CANNOT_MINT: ['a deployment token cannot create credentials', 'Use an API key or sign in to create it.'],
  NOT_FOUND: ['it no longer exists', RELOAD],
  ROUTE_NOT_FOUND: ['this service does not offer that', 'The service may be an older version: update it, or use a screen it offers.'],
  METHOD_NOT_ALLOWED: ['this service does not offer that', 'The service may be an older version: update it, or use a screen it offers.'],
  CONFLICT: ['it changed meanwhile', 'Reload the screen to see the latest version, then try again.'],
  IDEMPOTENCY_KEY_REUSED: ['the same request was already sent with other values', 'Start it again from the form (a new request gets a new key).'],
  MISDIRECTED_REQUEST: ['the service refused the address it was reached at', 'Open Drydock through 127.0.0.1 or localhost, as printed when it started.'],
  CROSS_ORIGIN_REFUSED: ['the service refused a request from another site', 'Open Drydock from its own address, not from another page.'],
  INVALID_CURSOR: ['the list moved on since it was loaded', 'Reload the list and page through it again.'],
  CURSOR_NOT_SUPPORTED_FOR_SORT: ['this order cannot be paged', 'The whole list is shown at once; choose another order to page through it.'],
  PAYLOAD_TOO_LARGE: ['what you sent is too large', 'Send less at once, or a smaller file.'],
  UNSUPPORTED_MEDIA_TYPE: ['the request was not understood', 'Reload the screen and try again.'],
  INTERNAL: ['the service had an unexpected problem', 'Try again; if it keeps happening, the service’s log (Deployments › Logs) says more.'],
  NETWORK_ERROR: ['Drydock’s service is not answering', 'Check that Drydock is still running, then try again.'],
  JOB_ALREADY_ACTIVE: ['the same work is already running', 'Wait for it to end, or cancel it, then start again.'],
  READ_ONLY_FIELD: ['a value that cannot be changed was changed', 'Reload the screen and change only the editable fields.'],
  UNKNOWN_FIELD: ['the request named a field that does not exist', 'Reload the screen and try again.'],
  USER_REQUIRED: ['this needs a signed-in person', 'Sign in as yourself (not with a deployment token) and try again.'],
  LOGIN_CODE_INVALID: ['the login link was already used or has expired', 'Ask for a new login link (drydock login-link, or the app’s menu) and open it.'],

  // ---- deployments, environments, tenant, people ----------------------------------------------
  CREATION_ALREADY_COMPLETE: ['the setup is already complete', 'Restart the setup to go through it again.'],
  CREATION_STEP_MISMATCH: ['the setup moved on meanwhile', 'Reload the screen to see the current step.'],
  TOO_MANY_ENV_VARS: ['the deployment has too many environment variables', 'Delete variables it no longer needs, then add this one.'],
  PRODUCTION_ENVIRONMENT_REQUIRED: ['the production environment cannot be removed', 'Keep it; create or delete other environments instead.'],
  TENANT_SETTING_READ_ONLY: ['this setting cannot be changed here', 'It is managed for the whole account.'],
  AUTO_PURCHASE_AMOUNT_REQUIRED: ['automatic purchases need an amount', 'Enter the amount to buy each time, then save.'],
  LAST_ADMIN: ['the last admin cannot lose the admin role', 'Make another user an admin first.'],
  USER_DEACTIVATED: ['that user is deactivated', 'Choose an active user, or reactivate this one.'],
  USER_ATTRIBUTE_IN_USE: ['the attribute is still used', 'Remove it from the access policies and users that use it first.'],
  USER_ATTRIBUTE_VALUE_INVALID: ['the value does not fit the attribute', 'Enter a value of the attribute’s type.', 'keep'],
  API_KEY_OWNER_REQUIRED: ['an API key needs an owner', 'Choose the user the key acts as.'],
  GROUP_NAME_TAKEN: ['a group of that name already exists', 'Choose another name.'],
  POLICY_NAME_TAKEN: ['a policy of that name already exists', 'Choose another name.'],
  USER_EMAIL_TAKEN: ['a user with that email address already exists', 'Use another address, or edit the existing user.'],
  FOLDER_CYCLE: ['a folder cannot go inside itself', 'Choose a folder that is not inside the one you move.'],
  FOLDER_NOT_EMPTY: ['the folder is not empty', 'Move or delete what is in it first.'],

  // ---- data model: branches, files, uploads -----------------------------------------------------
  BRANCH_EXISTS: ['a branch of that name already exists', 'Choose another name, or switch to the existing branch.'],
  BRANCH_NAME_CONFLICT: ['the branch name clashes with an existing branch', 'Choose a name that is not a prefix of another branch (or under one).'],
  INVALID_BRANCH_NAME: ['that is not a valid branch name', 'Use letters, digits, “-”, “_” and “/”, without spaces.'],
  BRANCH_NOT_IN_DEV_MODE: ['the branch is not a development branch', 'Switch to your development branch (dev mode) to do this.'],
  DEV_BRANCH_OF_ANOTHER_USER: ['the branch belongs to another user', 'Work on your own development branch.'],
  NOT_IN_DEV_MODE: ['you are not in development mode', 'Turn on dev mode (your own branch) to do this.'],
  DEPLOY_BRANCH_PROTECTED: ['the deploy branch cannot be changed directly', 'Make the change on a development branch and merge it.'],
  BRANCH_HAS_NO_PARENT: ['the branch has no branch to merge into', 'Choose the branch to merge into.'],
  INVALID_PARENT_BRANCH: ['that branch cannot be the target', 'Choose another branch to merge into.'],
  MERGE_INTO_ITSELF: ['a branch cannot merge into itself', 'Choose another target branch.'],
  UNCOMMITTED_CHANGES: ['there are unsaved changes', 'Save or discard your changes first.'],
  MERGE_CONFLICT: ['both branches changed the same lines', 'Resolve the conflicts (the merge view shows both sides), then commit.', 'keep'],
  COMMIT_NOT_FOUND: ['that version was not found', 'Pick a version from the history.'],
  FILE_EXISTS: ['a file of that name already exists', 'Choose another name, or open the existing file.'],
  FILE_CHANGED: ['the file changed meanwhile', 'Compare your edit with the new version before saving again.'],
  INVALID_IF_MATCH: ['the file’s version was not recognised', 'Reload the file, then save again.'],
  INVALID_FILE_PATH: ['that file name or folder is not allowed', 'Use letters, digits, “-”, “_”, “.” and “/”, inside model/.', 'keep'],
  PATH_RESERVED_BY_GIT: ['git keeps that name for itself', 'Choose another file or folder name (not .git, git~1 or one like them).', 'keep'],
  PATH_NOT_PORTABLE: ['Windows cannot hold that file or folder name', 'Avoid CON, AUX, NUL, COM1…, the characters < > : " | ? * and names ending in a period or space.', 'keep'],
  PATH_INVALID_UNICODE: ['the name has characters that are not text', 'Type the name again with ordinary characters.', 'keep'],
  PATH_CASE_CONFLICT: ['another file has the same name apart from capital letters or accents', 'On macOS and Windows they would be one file: choose a clearly different name.', 'keep'],
  REPOSITORY_DAMAGED: ['part of the model’s history is damaged on disk', 'Save the file again or pull from the team’s repository; restarting the app repairs what it can.'],
  FILE_TYPE_NOT_ALLOWED: ['that kind of file is not allowed in a model', 'Use .yml, .yaml, .js, .py, .jinja, .sql or .md files.', 'keep'],
  FILE_TOO_LARGE: ['the file is too large', 'Split it into smaller files.'],
  FILE_NOT_TEXT: ['the file is not text', 'Model files must be UTF-8 text.'],
  DUPLICATE_PATH: ['the same file is named twice', 'Name each file once.', 'keep'],
  PATH_CONFLICT: ['a file and a folder would have the same name', 'Choose another name.', 'keep'],
  REPOSITORY_BUSY: ['the model is busy with another change', TRY_LATER],
  UPLOAD_OF_ANOTHER_USER: ['the upload belongs to another user', 'Start your own upload.'],
  UPLOAD_EXPIRED: ['the upload took too long and expired', 'Upload the files again.'],
  UPLOAD_FINISHED: ['the upload is already finished', 'Start a new upload to send more files.'],
  UPLOAD_TOO_LARGE: ['the upload is too large', 'Upload fewer or smaller files at once.'],
  UPLOAD_MANIFEST_CHANGED: ['the list of files changed during the upload', 'Upload the files again.'],
  UPLOAD_PATH_NOT_IN_MANIFEST: ['a file is not in the upload’s list', 'Upload the files again.'],
  UPLOAD_INCOMPLETE: ['some files of the upload are missing', 'Upload the files again.'],
  UPLOAD_HASH_MISMATCH: ['a file arrived damaged', 'Upload the files again.'],
  CHUNK_OUT_OF_RANGE: ['a part of the upload did not fit', 'Upload the files again.'],
  CHUNK_TOO_LARGE: ['a part of the upload was too large', 'Upload the files again.'],
  INVALID_CHUNK_DATA: ['a part of the upload arrived damaged', 'Upload the files again.'],

  // ---- git: hosts and the team's repository ----------------------------------------------------
  GITHOST_NOT_FOUND: ['the repository was not found on the git host', 'Check its owner and name, and that the app may see it.'],
  GITHOST_UNAUTHORIZED: ['the git host refused Drydock’s credentials', 'Check the GitHub App’s settings (app id, private key).'],
  GITHOST_RATE_LIMITED: ['the git host asked to slow down', 'Wait a few minutes, then try again.'],
  GITHOST_UNREACHABLE: ['the git host is not answering', 'Check the network and the host’s address, then try again.'],
  GITHOST_ERROR: ['the git host reported a problem', TRY_LATER, 'keep'],
  GITHOST_NOT_CONFIGURED: ['no git host is set up', 'Set DRYDOCK_GITHUB_APP_ID and the app’s private key (see the README), or connect a repository by URL.'],
  GITHOST_INSTALLATION_MISMATCH: ['the GitHub App is not installed for that repository', 'Install the app on the repository’s owner, then try again.'],
  UPSTREAM_NOT_CONNECTED: ['no team repository is connected', 'Connect one under Models › Repository.'],
  BRANCH_HAS_NO_UPSTREAM: ['the branch has no counterpart in the team’s repository', 'Push it first to create one.'],
  UPSTREAM_BRANCH_GONE: ['the branch was deleted in the team’s repository', 'Push it again to recreate it, or switch to another branch.'],
  UPSTREAM_BRANCH_NOT_FOUND: ['the branch does not exist in the team’s repository', 'Push it first, or pick a branch that exists there.'],
  PUSH_REJECTED: ['the team’s repository refused the push', 'Pull first to bring in what others pushed, then push again.', 'keep'],
  UPSTREAM_MOVED: ['someone pushed to the team’s repository meanwhile', 'Pull to bring in their changes, then push again.'],
  UPSTREAM_AUTH_FAILED: ['the team’s repository refused the credentials', 'Edit the connection and enter a valid token or password.'],
  UPSTREAM_NOT_FOUND: ['the team’s repository was not found', 'Check its address, and that the credentials may read it.'],
  UPSTREAM_UNREACHABLE: ['the team’s repository is not answering', 'Check the network and the repository’s address, then try again.'],
  UPSTREAM_TIMEOUT: ['the team’s repository took too long to answer', TRY_LATER],
  UPSTREAM_CANCELLED: ['the operation was cancelled', 'Start it again when you are ready.'],
  UPSTREAM_ERROR: ['the team’s repository reported a problem', TRY_LATER, 'keep'],
  INVALID_REPOSITORY_URL: ['that is not a repository address Drydock can use', 'Enter an https:// address of a git repository, e.g. https://github.com/acme/analytics.git.'],

  // ---- warehouse push and pull -----------------------------------------------------------------
  SYNC_JOB_NOT_COMPLETED: ['the job has not finished yet', 'Wait for it to finish; its result appears then.'],
  MODEL_NOT_PUSHABLE: ['some views cannot be pushed', 'Leave them out of the push, or change them as Models › Problems says.', 'keep'],
  DATA_SOURCE_NOT_WAREHOUSE: ['that data source is not a warehouse', 'Choose a Snowflake data source (or the local warehouse) for semantic views.'],
  DATA_SOURCE_DATABASE_MISSING: ['the data source names no database', `Set its database (CUBEJS_DB_NAME). ${CHECK_SOURCE}`],
  DATA_SOURCE_INCOMPLETE: ['the data source lacks connection settings', CHECK_SOURCE, 'keep'],
  DATA_SOURCE_UNSUPPORTED: ['Drydock cannot talk to that kind of data source', 'Use a Snowflake or Databricks data source, or the local emulators.'],
  SQL_RUNNER_DDL_DISABLED: ['the warehouse does not allow creating views from here', 'Ask the warehouse admin to enable DDL for Drydock’s role.'],
  SEMANTIC_VIEW_NOT_FOUND: ['the semantic view is not in the warehouse', 'Refresh the list and pick a view that exists.'],
  MODEL_VIEW_NOT_FOUND: ['a chosen view is not in the model', 'Refresh the list and pick views that exist on this branch.'],
  WAREHOUSE_INSUFFICIENT_PRIVILEGES: ['the warehouse role lacks a privilege', 'Ask the warehouse admin to grant it (the details name it), or use another role.', 'keep'],
  WAREHOUSE_DDL_DISABLED: ['the warehouse does not allow creating views from here', 'Ask the warehouse admin to enable DDL for Drydock’s role.'],
  WAREHOUSE_SYNTAX_ERROR: ['the warehouse could not read a statement', 'Check the view in Models; the details show the warehouse’s message.', 'keep'],
  WAREHOUSE_OBJECT_NOT_FOUND: ['the warehouse has no such object', 'Check the database and schema names; the details name what is missing.', 'keep'],
  WAREHOUSE_OBJECT_EXISTS: ['the warehouse already has an object of that name', 'Choose another name or schema, or replace it.', 'keep'],
  WAREHOUSE_INVALID_IDENTIFIER: ['a name is not valid in the warehouse', 'Check the names in the view; the details name the one refused.', 'keep'],
  WAREHOUSE_INVALID_DEFINITION: ['the warehouse refused the view’s definition', 'Change the view as the warehouse’s message says.', 'keep'],
  WAREHOUSE_NO_ACTIVE_WAREHOUSE: ['no warehouse is set to run queries', `Set CUBEJS_DB_SNOWFLAKE_WAREHOUSE. ${CHECK_SOURCE}`],
  WAREHOUSE_NO_CURRENT_SCHEMA: ['no database or schema was chosen', 'Choose the schema (and the data source’s database) and try again.'],
  WAREHOUSE_STATEMENT_COUNT: ['more than one statement was sent', 'Send one statement at a time.'],
  WAREHOUSE_UNSUPPORTED: ['the local warehouse does not run that statement', 'Run it against a real Snowflake account, or use a statement the emulator supports.', 'keep'],
  WAREHOUSE_AUTHENTICATION_FAILED: ['the warehouse refused the sign-in', `Check the user, password or key. ${CHECK_SOURCE}`],
  WAREHOUSE_CONNECTION_FAILED: ['the warehouse cannot be reached', `Check the account name and the network. ${CHECK_SOURCE}`],
  WAREHOUSE_CONNECTION_CLOSED: ['the warehouse connection closed', TRY_LATER],
  WAREHOUSE_ERROR: ['the warehouse reported a problem', TRY_LATER, 'keep'],

  // ---- lakehouse publication ---------------------------------------------------------------------
  LAKEHOUSE_DATA_SOURCE_REQUIRED: ['that data source is not a lakehouse', 'Choose a Databricks data source (or the local lakehouse) to publish metric views.'],
  LAKEHOUSE_CONFIGURATION_VERSION_CONFLICT: ['someone saved these settings meanwhile', 'Compare your changes with theirs, then save again.'],
  LAKEHOUSE_NAME_PATTERN_INVALID: ['the name pattern is not valid', 'Fix the pattern (e.g. {view} or dd_{view}); the details say what is wrong.', 'keep'],
  LAKEHOUSE_SCOPE_TOO_LARGE: ['too many views are chosen', 'Publish at most 128 views per data source: narrow the selection or the pattern.'],
  LAKEHOUSE_INVALID_CONFIGURATION: ['the settings do not fit together', 'Adjust them as the message says, then save.', 'keep'],
  LAKEHOUSE_TARGET_NAME_CONFLICT: ['two views would get the same name', 'Change the name pattern or the overrides so that every name is different.', 'keep'],
  LAKEHOUSE_TARGET_REQUIRED: ['no catalog and schema are set to publish into', 'Choose the catalog and schema in the settings and save them.'],
  LAKEHOUSE_VIEW_OF_OTHER_DATA_SOURCE: ['a chosen view reads another data source', 'Pick views over this data source’s cubes only.', 'keep'],
  LAKEHOUSE_RUN_ACTIVE: ['a publication is already running', 'Wait for it to end, or cancel it, then start again.'],
  LAKEHOUSE_PREVIEW_NOT_FINISHED: ['the preview has not finished yet', 'Wait for it to finish.'],
  LAKEHOUSE_PREVIEW_NO_RESULT: ['the preview has no result', 'Run the preview again.'],
  LAKEHOUSE_PREVIEW_RECORD_MISSING: ['the preview’s record is missing', 'Run the preview again.'],
  LAKEHOUSE_PUBLICATION_NOT_ACTIVATED: ['publication is not switched on for this deployment', 'Save the lakehouse settings once to switch it on.'],
  LAKEHOUSE_BRANCH_NOT_PUBLISHABLE: ['only the deploy branch or your own dev branch can be published', 'Publish from the deploy branch, or from your dev branch to your personal dev target.'],
  LAKEHOUSE_DEV_SCHEMA_FAILED: ['your personal dev schema could not be created', 'Ask the workspace admin for the right to create schemas in that catalog, or switch the dev target rule to a name prefix.', 'keep'],
  LAKEHOUSE_NO_SUCCESSFUL_BUILD: ['the deployment has no working build', 'Fix the model’s errors and merge to the deploy branch, then try again.', 'keep'],
  LAKEHOUSE_TARGET_UNMANAGED: ['a view of that name exists and was not made by Drydock', 'Choose another name or schema, or drop the existing view.'],
  LAKEHOUSE_TARGET_MANAGED_ELSEWHERE: ['another deployment publishes a view of that name', 'Choose another name or schema.'],
  LAKEHOUSE_TARGET_DRIFTED: ['someone changed the published view by hand', 'Publish again with “replace changed views”, or copy their change into the model.'],
  LAKEHOUSE_WRITE_NOT_CONFIRMED: ['the lakehouse did not confirm the write', 'Publish again.'],
  LAKEHOUSE_PERMISSION_DENIED: ['the lakehouse credential lacks a privilege', 'Ask the workspace admin to grant it (the details name it).', 'keep'],
  LAKEHOUSE_INVALID_DEFINITION: ['the lakehouse refused the metric view', 'Change the view as the lakehouse’s message says.', 'keep'],
  // ---- change review and model tests ---------------------------------------------------------
  REVIEW_NOT_COMPLETED: ['the review has not finished yet', 'Wait for it to finish; its progress is shown above.'],
  REVIEW_SOURCE_UNREADABLE: ['one of the two commits could not be read', 'Check that both commits still exist (fetch the team’s repository), then review again.', 'keep'],
  TEST_SOURCE_UNREADABLE: ['the commit’s model tests could not be read', 'Check that the commit still exists, then run the tests again.', 'keep'],
  LAKEHOUSE_NOT_FOUND: ['the lakehouse has no such catalog, schema or table', 'Check the names; the details name what is missing.', 'keep'],
  LAKEHOUSE_CONFLICT: ['the lakehouse already has an object of that name', 'Choose another name or schema.', 'keep'],
  LAKEHOUSE_AUTH_FAILED: ['the lakehouse refused the sign-in', `Check the access token. ${CHECK_SOURCE}`],
  LAKEHOUSE_UNAVAILABLE: ['the lakehouse cannot be reached', `Check the workspace address and the network. ${CHECK_SOURCE}`],
  LAKEHOUSE_FAILED: ['the lakehouse reported a problem', TRY_LATER, 'keep'],

  // ---- queries, tables, vendor SQL ---------------------------------------------------------------
  INVALID_QUERY: ['the query is not valid', 'Change it as the message says.', 'keep'],
  UNKNOWN_MEMBER: ['the query names a member the model does not have', 'Pick members from the list.', 'keep'],
  WRONG_MEMBER_KIND: ['a member is used in the wrong place', 'Use measures as measures and dimensions as dimensions.', 'keep'],
  INVALID_FILTER: ['a filter is not valid', 'Change the filter as the message says.', 'keep'],
  INVALID_DATE_RANGE: ['the date range is not valid', 'Enter a start and end date, or a range such as “last 7 days”.', 'keep'],
  UNKNOWN_GRANULARITY: ['that time granularity does not exist', 'Choose one of the listed granularities.'],
  NO_JOIN_PATH: ['the chosen members cannot be combined', 'Pick members of cubes that are joined in the model, or add the join.', 'keep'],
  MIXED_DATA_SOURCES: ['the members come from different data sources', 'Pick members of one data source.'],
  NO_PRIMARY_KEY: ['a cube has no primary key', 'Add a primary key dimension to the cube.', 'keep'],
  UNSUPPORTED_MEMBER: ['a member cannot be queried here', 'Leave it out of the query.', 'keep'],
  LIMIT_EXCEEDED: ['the query asks for too many rows', 'Lower the row limit.'],
  ACCESS_DENIED: ['an access policy hides these members from you', ASK_ADMIN],
  INVALID_TIMEZONE: ['that time zone does not exist', 'Choose a time zone from the list, e.g. Europe/Berlin.'],
  MODEL_INVALID: ['the model has errors', 'Fix them in Models (the Problems panel lists them), then try again.'],
  QUERY_FAILED: ['the data source could not run the query', 'Check the message below; try again when the data source answers.', 'keep'],
  QUERY_CANCELLED: ['the query was cancelled', 'Run it again when you are ready.'],
  TABLE_FILE_INVALID: ['the file could not be read as a table', 'Use a CSV file with a header row, or a Parquet file.', 'keep'],
  TABLE_EXISTS: ['a table of that name already exists', 'Choose another name, or tick “replace” to overwrite it.'],
  SQL_INVALID: ['the statement could not run', 'Correct it as the message says.', 'keep'],
  SQL_ACCESS_DENIED: ['the data source refused to read that', 'Ask its admin for access, or read something else.', 'keep'],

  // ---- workbooks, dashboards, promotions ---------------------------------------------------------
  NO_DRAFT_TO_PUBLISH: ['there is no draft to publish', 'Edit the workbook first; publishing turns the draft into the published version.'],
  DUPLICATE_WIDGET_ID: ['two widgets have the same id', 'Reload the dashboard and try again.'],
  WIDGET_ID_REQUIRED: ['a widget has no id', 'Reload the dashboard and try again.'],
  FILTER_VALUES_REQUIRED: ['the filter needs values', 'Pick at least one value for the filter.'],
  FILTER_VALUES_NOT_ALLOWED: ['this filter takes no values', 'Clear the filter’s values.'],
  DASHBOARD_NOT_PUBLISHED: ['the dashboard is not published yet', 'Publish the workbook first.'],
  PROMOTION_CREDENTIAL_REFUSED: ['this credential cannot promote', 'Sign in as a user with access to both deployments.'],
  PROMOTION_SOURCE_CHANGED: ['the workbook changed since the preview', 'Preview again, then promote.'],
  PROMOTION_TARGET_CHANGED: ['the target changed since the preview', 'Preview again, then promote.'],
  PROMOTION_TARGET_IS_SOURCE: ['the target is the workbook itself', 'Choose another deployment to promote to.'],
  PROMOTION_TARGET_PRIVATE: ['the target workbook is private', 'Promote to a shared workbook, or ask its owner to share it.'],
  DASHBOARD_REF_AMBIGUOUS: ['more than one dashboard matches', 'Pick the dashboard by its workbook and name.'],
  DASHBOARD_REF_REQUIRED: ['no dashboard was chosen', 'Pick a dashboard.'],
  INVALID_CRON: ['the schedule is not valid', 'Enter a schedule such as “0 8 * * 1” (Mondays at 8:00).', 'keep'],
  CRON_TOO_FREQUENT: ['the schedule runs too often', 'Choose a schedule that runs at most once an hour.'],
  INVALID_RECIPIENT: ['a recipient is not valid', 'Enter email addresses or pick users.', 'keep'],
  ACTIVE_TASK_LIMIT_REACHED: ['there are already as many active tasks as allowed', 'Pause or delete a task first.'],
  SCHEDULED_TASKS_DISABLED: ['scheduled tasks are switched off', 'An admin can switch them on under Admin › Tenant.'],
  SCHEDULED_TASK_DELETED: ['the task was deleted', RELOAD],
  EXPORT_EXPIRED: ['the export has expired', 'Export the dashboard again.'],
  EXPORT_NOT_READY: ['the export is not ready yet', 'Wait for it to finish.'],
  RENDER_AS_NOT_ALLOWED: ['only admins can export as another user', 'Export as yourself.'],
  RENDER_AS_NO_ACCESS: ['that user cannot see the dashboard', 'Choose a user who has access.'],
  DOCUMENT_PLACEMENT_LIMIT_EXCEEDED: ['the report is placed in too many places', 'Remove a placement first.'],
  PLACEMENT_ADDRESS_MISMATCH: ['the placement’s address does not match', 'Reload and try again.'],
  PLACEMENT_ADDRESS_REQUIRED: ['the placement needs an address', 'Enter where the report goes.'],
  INVALID_MANIFEST: ['the dbt manifest could not be read', 'Upload the manifest.json that dbt wrote (target/manifest.json).', 'keep'],
  TRANSFORM_SYNC_NOT_COMPLETED: ['the sync has not finished yet', 'Wait for it to finish.'],

  // ---- remote profiles and transfers -------------------------------------------------------------
  PROFILE_UNREACHABLE: ['the other service is not answering', 'Check its address and that it is running.'],
  PROFILE_TIMEOUT: ['the other service took too long to answer', TRY_LATER],
  PROFILE_CREDENTIAL_REJECTED: ['the other service refused the profile’s credential', 'Edit the profile and enter a valid key or token.'],
  PROFILE_CREDENTIAL_MISSING: ['the profile has no credential', 'Edit the profile and enter its key or token.'],
  PROFILE_CREDENTIAL_REFUSED: ['that credential cannot be used for a profile', 'Use an API key or token of the other service.'],
  PROFILE_NOT_A_PLATFORM: ['that address is not a platform service', 'Check the address: it should be the service’s base URL.'],
  PROFILE_REDIRECTED: ['the other service sent Drydock elsewhere', 'Enter the address it redirects to.'],
  PROFILE_RESPONSE_TOO_LARGE: ['the other service answered with too much', 'Ask for less (a smaller page or a narrower selection).'],
  PROFILE_REMOTE_FAILED: ['the other service refused the request', 'Its message below says why.', 'keep'],
  PROFILE_OPERATION_NOT_SERVED: ['the other service does not offer this', 'Update it, or use a feature it offers.'],
  PROXY_PATH_REFUSED: ['that request cannot be sent to another service', 'Use the screens of the profile instead.'],
  TRANSFER_FINISHED: ['the transfer has already ended', 'Start a new one.'],
  REMOTE_SOURCE_CHANGED: ['the source changed since the preview', 'Preview again, then transfer.'],
  REMOTE_TARGET_CHANGED: ['the target changed since the preview', 'Preview again, then transfer.'],
  REMOTE_WRITE_FAILED: ['the other service did not take the change', 'Its message below says why; try again when it answers.', 'keep'],

  // ---- embedding, OAuth, agent (reached from embedded pages and the OAuth callback) -------------
  SIGNED_EMBEDDING_DISABLED: ['signed embedding is switched off', 'An admin can switch it on under Admin › Tenant.'],
  EMBED_ACCESS_DENIED: ['the embedded user may not see this', 'Give the embed group access to the dashboard.'],
  EMBED_BRANCH_NOT_RUNNING: ['the branch of the embed session is not deployed', 'Merge and deploy it, or embed the deploy branch.'],
  EMBED_SESSION_INVALID: ['the embed session has ended', 'Open the embedded page again.'],
  EMBED_SESSION_REQUIRED: ['this needs an embed session', 'Open it from the embedded page.'],
  COMMENT_AUTHOR_ONLY: ['only the comment’s author can change it', 'Reply instead.'],
  DASHBOARD_COMMENTS_DISABLED: ['comments are switched off for this dashboard', 'An admin can switch them on for the embed tenant.'],
  WIDGET_HAS_NO_PYTHON: ['the widget has no Python code', 'Add code to the widget first.'],
  PYTHON_ERROR: ['the Python code failed', 'Fix the code; the message below says where.', 'keep'],
  PYTHON_MEMORY_LIMIT: ['the Python code used too much memory', 'Work on less data at once.'],
  PYTHON_RESULT_NOT_JSON: ['the Python code did not return data', 'Return a list or dict of plain values.'],
  PYTHON_RESULT_TOO_LARGE: ['the Python result is too large', 'Return less data: at most 1 MiB of JSON.'],
  PYTHON_RUNTIME_UNAVAILABLE: ['Python is not available', TRY_LATER],
  PYTHON_TIME_LIMIT: ['the Python code ran too long', 'Make it faster or work on less data.'],
  OAUTH_STATE_MISSING: ['the provider’s answer did not say which sign-in it belongs to', 'Start the connection again.'],
  OAUTH_STATE_USED: ['that sign-in with the provider was already completed', 'Start the connection again if you need a new one.'],
  OAUTH_STATE_EXPIRED: ['the sign-in with the provider took too long', 'Start the connection again and finish it within a few minutes.'],
  OAUTH_ACCESS_DENIED: ['the connection was not allowed at the provider', 'Start it again and allow access when the provider asks.'],
  OAUTH_PROVIDER_ERROR: ['the provider reported a problem', 'Start the connection again; the details show the provider’s message.', 'keep'],
  OAUTH_CODE_MISSING: ['the provider’s answer had no authorization code', 'Start the connection again.'],
  OAUTH_TOKEN_ENDPOINT_UNREACHABLE: ['the provider’s token address is not answering', 'Check the integration’s token URL and the network, then try again.'],
  OAUTH_TOKEN_RESPONSE_INVALID: ['the provider’s answer could not be read', 'Check the integration’s token URL; it should be the provider’s OAuth token endpoint.'],
  OAUTH_REFRESH_FAILED: ['the provider would not renew the connection', 'Connect again to sign in with the provider anew.'],
  OAUTH_REFRESH_TOKEN_MISSING: ['the connection cannot be renewed', 'Connect again to sign in with the provider anew.'],
  OIDC_CLAIM_RESERVED: ['a claim name is one the token sets itself', 'Name another user attribute for that claim.'],
  OAUTH_STATE_INVALID: ['the sign-in with the provider expired or was already used', 'Start the connection again.'],
  OAUTH_TOKEN_EXCHANGE_FAILED: ['the provider refused the sign-in', 'Start the connection again; check the integration’s client id and secret if it keeps failing.', 'keep'],
  AGENT_NOT_CONFIGURED: ['no agent is set up', 'Set DRYDOCK_AGENT_BASE_URL and DRYDOCK_AGENT_MODEL (see the README).'],
  AGENT_UNAUTHORIZED: ['the agent refused Drydock’s key', 'Check the agent’s API key.'],
  AGENT_RATE_LIMITED: ['the agent asked to slow down', 'Wait a few minutes, then try again.'],
  AGENT_UNAVAILABLE: ['the agent is unavailable', TRY_LATER],
  AGENT_UNREACHABLE: ['the agent is not answering', 'Check its address and the network.'],
  AGENT_TIMEOUT: ['the agent took too long to answer', TRY_LATER],
  AGENT_REQUEST_REJECTED: ['the agent refused the request', 'Its message below says why.', 'keep'],
  AGENT_BAD_RESPONSE: ['the agent’s answer could not be read', TRY_LATER],
  AGENT_CANCELLED: ['the agent’s work was cancelled', 'Run the task again when you are ready.'],
};

/** A code's noun for the family rules: `LAKEHOUSE_RUN_NOT_FOUND` → `run`, `WORKBOOK_SLUG_TAKEN` → `workbook slug`. */
function nounOf(code: string, suffix: RegExp): string {
  return code
    .replace(suffix, '')
    .replace(/^(LAKEHOUSE|WAREHOUSE)_/, '')
    .toLowerCase()
    .replaceAll('_', ' ');
}

/**
 * Families whose words follow from the code's name: something that is gone (…_NOT_FOUND), a name
 * that is taken (…_TAKEN, …_EXISTS). Checked after the table, so a code can still get its own words.
 */
const FAMILIES: { match: RegExp; words: (noun: string) => PlainCode }[] = [
  {
    match: /_NOT_FOUND$/,
    words: (noun) => ({ what: `the ${noun} was not found`, fix: `It may have been deleted or renamed meanwhile: reload the screen and pick it again.` }),
  },
  {
    match: /(_NAME)?_(TAKEN|EXISTS)$/,
    words: (noun) => ({ what: `that ${noun} name is already used`, fix: 'Choose another name.' }),
  },
];

/** The plain words of a code, or null for a code Drydock does not know (the caller shows the service's own words). */
export function plainCode(code: string | null | undefined): PlainCode | null {
  if (!code) return null;
  const entry = ENTRIES[code];
  if (entry) return { what: entry[0], fix: entry[1], ...(entry[2] ? { keepDetail: true } : {}) };
  for (const family of FAMILIES) if (family.match.test(code)) return family.words(nounOf(code, family.match));
  return null;
}

/** Codes with their own words (for the test that every code the service sends has some). */
export const CODES_WITH_OWN_WORDS: readonly string[] = Object.keys(ENTRIES);
