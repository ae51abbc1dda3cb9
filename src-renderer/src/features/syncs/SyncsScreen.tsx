import { Placeholder } from '../placeholder';

export default function SyncsScreen() {
  return (
    <Placeholder
      title="Syncs"
      summary="Push model views to the warehouse and publish them to the lakehouse, and pull existing definitions back."
      items={[
        'Warehouse semantic view push and pull jobs, with progress, results and generated files',
        'Lakehouse metric view publication settings, runs and per-view outcomes (withheld members)',
        'Transform sync runs from git or an uploaded manifest',
      ]}
    />
  );
}
