/** A `<select>` over a fixed list of values, each shown by its label. */
export function EnumSelect<T extends string>(props: {
  id: string;
  value: T;
  options: readonly T[];
  labels: Record<T, string>;
  onChange: (value: T) => void;
}) {
  return (
    <select id={props.id} value={props.value} onChange={(e) => props.onChange(e.target.value as T)}>
      {props.options.map((v) => (
        <option key={v} value={v}>
          {props.labels[v]}
        </option>
      ))}
    </select>
  );
}
