import { useId, type ReactNode } from 'react';
import type { DataSourceSchemas } from '../../../src-shared/api/queries';
import { Combobox } from './Combobox';
import { inOneLine } from './errors';
import { ProblemDetails } from './ui';
import type { Query } from './useQuery';

/** Whether `name` is one of `names` as the data source reads it (Snowflake and Databricks fold unquoted case). */
export const isListed = (names: readonly string[], name: string): boolean => names.some((n) => n.toLowerCase() === name.trim().toLowerCase());

/**
 * A schema (or catalog) field fed by what exists in the data source (`listDataSourceSchemas`, asked
 * as the data source's own credential): a combobox of the names there, with the state of that
 * list said under it — reading, the connector's failure in plain words (the field stays usable:
 * a name can still be typed), or that the typed name is not there. `created` says what happens
 * to a name that is not there where creating it is legitimate (a load creates its schema); without
 * it, such a name is flagged, since the push or publication would fail on it.
 */
export function SchemaPicker({
  id,
  value,
  onChange,
  schemas,
  list = 'schemas',
  placeholder,
  created,
  unlistedWarning,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  schemas: Query<DataSourceSchemas>;
  list?: 'schemas' | 'catalogs';
  placeholder?: string;
  /** Said when the typed name does not exist and will be created, e.g. "The import creates it." */
  created?: string;
  /** The consequence of a name that does not exist, e.g. "the push would fail". */
  unlistedWarning?: string;
}) {
  const statusId = `${useId()}-status`;
  const word = list === 'catalogs' ? 'catalog' : 'schema';
  const data = schemas.data;
  const names = data ? (list === 'catalogs' ? data.catalogs : data.schemas) : [];
  const where = data ? (list === 'catalogs' ? `data source ${data.dataSource}` : `${data.catalog ?? 'its catalog'} of data source ${data.dataSource}`) : null;
  const typed = value.trim();

  let status: ReactNode = null;
  let tone: 'hint' | 'warn' | 'error' = 'hint';
  if (schemas.loading && !data) {
    status = `Reading the ${word}s from the data source…`;
  } else if (schemas.error) {
    tone = 'error';
    status = (
      <>
        {inOneLine(schemas.error)} You can still type a {word} name.{' '}
        <button type="button" className="link" onClick={schemas.reload}>
          Try again
        </button>
        <ProblemDetails error={schemas.error} />
      </>
    );
  } else if (data && typed && !isListed(names, typed)) {
    if (created) {
      status = (
        <>
          New {word}: <code>{typed}</code> is not in {where} yet. {created}
        </>
      );
    } else {
      tone = 'warn';
      status = (
        <>
          <code>{typed}</code> is not a {word} in {where}
          {unlistedWarning ? `; ${unlistedWarning}` : ''}. Pick one from the list.
        </>
      );
    }
  } else if (data && names.length === 0) {
    tone = 'warn';
    status = `No ${word} in ${where} is open to Drydock’s credential.${created ? ` Type a name: ${created}` : ''}`;
  }

  return (
    <>
      <Combobox
        id={id}
        value={value}
        onChange={onChange}
        options={names}
        label={word}
        placeholder={placeholder}
        describedBy={status ? statusId : undefined}
        emptyText={schemas.loading ? `Reading the ${word}s…` : schemas.error ? `The ${word}s could not be read; type a name.` : `No ${word}s to choose from.`}
      />
      {status && (
        <div id={statusId} className={`schema-status schema-status-${tone}`} role={tone === 'hint' ? undefined : 'status'}>
          {status}
        </div>
      )}
    </>
  );
}
