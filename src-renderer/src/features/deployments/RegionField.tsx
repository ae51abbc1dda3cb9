import { inOneLine } from '../../lib/errors';
import { Field } from '../../lib/ui';
import type { useRegions } from './regions';

/**
 * The Region field of the create dialog and of the General tab: the provider's regions by name
 * and code; under it the service's complaint about the region, or why the list could not be read.
 * Creating waits for the list (the provider's default region comes from it); editing keeps the
 * saved region selectable while the list loads or when the provider no longer lists it.
 */
export function RegionField({
  id,
  value,
  onChange,
  regions,
  error,
  whileLoading,
}: {
  id: string;
  value: string;
  onChange: (region: string) => void;
  regions: ReturnType<typeof useRegions>;
  /** The service's field error about the region, if any. */
  error: string | null | undefined;
  whileLoading: 'wait' | 'keep-value';
}) {
  const listed = regions.data ?? [];
  const waiting = whileLoading === 'wait' && !regions.data;
  return (
    <Field label="Region" htmlFor={id} error={error ?? (regions.error ? inOneLine(regions.error) : null)}>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} disabled={waiting || undefined}>
        {waiting && <option value="">{regions.loading ? 'Loading…' : 'Provider default'}</option>}
        {whileLoading === 'keep-value' && !listed.some((r) => r.code === value) && <option value={value}>{value}</option>}
        {listed.map((r) => (
          <option key={r.id} value={r.code}>
            {r.name} ({r.code})
          </option>
        ))}
      </select>
    </Field>
  );
}
