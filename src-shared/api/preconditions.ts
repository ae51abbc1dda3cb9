// What the OpenAPI document says of versioned resources (the rule itself: src-main/http/preconditions.ts).

/** The sentence the OpenAPI descriptions of versioned writes carry. */
export const IF_MATCH_RULE =
  'Drydock addition: send `If-Match` with the `ETag` a read answered to make the write conditional; when the resource changed since, ' +
  'nothing is written and the answer is 409 `FILE_CHANGED` with `baseVersion`, `currentVersion` and `current` (the resource as a read answers it now). ' +
  'Without `If-Match` the write behaves as on the hosted platform (the last write wins).';
/** The sentence the OpenAPI descriptions of versioned reads carry. */
export const ETAG_RULE = 'Drydock addition: answers the resource’s version in `ETag` (the quoted sha256 of its content), for `If-Match` on writes.';
