// Creating a workbook (`POST …/workbooks`) and renaming one (`PUT …/workbooks/by-slug/{slug}`, the
// spec's create-or-update by slug: fields left out keep their value; sent with If-Match).
import { useEffect, useState } from 'react';
import { createWorkbook, upsertWorkbookBySlug, type WorkbookDetail } from '../../../../src-shared/api/workbooks';
import { api } from '../../app/session';
import { errorFor } from '../../lib/errors';
import { FormDialog } from '../../lib/FormDialog';
import { Field } from '../../lib/ui';
import { useAction } from '../../lib/useAction';
import { SettingsConflictDialog } from '../../lib/SettingsConflictDialog';
import { useVersionedForm } from '../../lib/useVersionedForm';

export function NewWorkbookDialog({ open, deploymentId, onClose, onCreated }: { open: boolean; deploymentId: number; onClose: () => void; onCreated: (workbook: WorkbookDetail) => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [shared, setShared] = useState(true);
  const { busy, error, setError, run } = useAction('Creating the workbook');
  useEffect(() => {
    if (!open) return;
    setName('');
    setDescription('');
    setShared(true);
    setError(null);
  }, [open, setError]);
  const create = async () => {
    const created = await run(() => api.call(createWorkbook, { params: { deploymentId }, body: { name: name.trim(), shared, ...(description.trim() ? { description: description.trim() } : {}) } }));
    if (created) onCreated(created);
  };
  return (
    <FormDialog
      title="New workbook"
      open={open}
      onClose={onClose}
      formId="wb-new-form"
      submitLabel="Create workbook"
      busy={busy}
      submitDisabled={!name.trim()}
      error={error}
      onSubmit={() => (name.trim() ? create() : undefined)}
    >
      <Field label="Name" htmlFor="wb-new-name" error={errorFor(error, 'name')} hint="Its address (slug) is made from the name.">
        <input id="wb-new-name" value={name} maxLength={255} onChange={(e) => setName(e.target.value)} autoComplete="off" />
      </Field>
      <Field label="Description" htmlFor="wb-new-description">
        <textarea id="wb-new-description" rows={2} value={description} onChange={(e) => setDescription(e.target.value)} />
      </Field>
      <label className="wb-check">
        <input type="checkbox" checked={shared} onChange={(e) => setShared(e.target.checked)} /> Shared with everyone who can read the deployment
      </label>
    </FormDialog>
  );
}

/**
 * Renames with the version of the workbook the page shows (If-Match): a rename over a change made
 * meanwhile is re-sent at once when the name was left alone there (a dashboard save), and shown
 * as "changed elsewhere" when someone renamed it too.
 */
export function RenameWorkbookDialog({
  open,
  workbook,
  version,
  onClose,
  onRenamed,
}: {
  open: boolean;
  workbook: WorkbookDetail;
  /** The version (`ETag`) of `workbook`. */
  version: string | null;
  onClose: () => void;
  onRenamed: () => void;
}) {
  const versioned = useVersionedForm<WorkbookDetail, { name: string }>({
    what: `The workbook “${workbook.name}”`,
    action: 'Renaming the workbook',
    formOf: (w) => ({ name: w.name }),
    labels: { name: 'Name' },
    save: (base, mine, ifMatch) =>
      api.callVersioned(upsertWorkbookBySlug, { params: { deploymentId: base.deploymentId, slug: base.slug }, body: { name: mine.name.trim() }, ...(ifMatch ? { ifMatch } : {}) }),
    onSaved: () => {
      onRenamed();
      onClose();
    },
  });
  const { busy, error, load, form, current } = versioned;
  useEffect(() => {
    if (open) load(workbook, version);
  }, [open, workbook, version, load]);
  const name = form?.name ?? workbook.name;
  const rename = () => void versioned.submit();
  const unchanged = name.trim() === (current ?? workbook).name || !name.trim();
  return (
    <>
      <FormDialog
        title="Rename workbook"
        // Not named after the title: “Rename” contains “name”, and the Name field must be the one thing labelled so.
        formLabel="Workbook"
        open={open}
        onClose={onClose}
        formId="wb-rename-form"
        submitLabel="Rename"
        busy={busy}
        submitDisabled={unchanged}
        error={error}
        onSubmit={() => (unchanged ? undefined : rename())}
      >
        <Field label="Name" htmlFor="wb-rename-name" error={errorFor(error, 'name')} hint={`Its address stays ${workbook.slug}.`}>
          <input id="wb-rename-name" value={name} maxLength={255} onChange={(e) => versioned.setForm({ name: e.target.value })} autoComplete="off" />
        </Field>
      </FormDialog>
      <SettingsConflictDialog {...versioned.dialog} />
    </>
  );
}
