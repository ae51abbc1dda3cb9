// Creating a workbook (`POST …/workbooks`) and renaming one (`PUT …/workbooks/by-slug/{slug}`, the
// spec's create-or-update by slug: fields left out keep their value).
import { useEffect, useState } from 'react';
import { createWorkbook, upsertWorkbookBySlug, type Workbook, type WorkbookDetail } from '../../../../src-shared/api/workbooks';
import { api } from '../../app/session';
import { errorFor } from '../../lib/errors';
import { Button, Dialog, Field, ProblemBanner } from '../../lib/ui';
import { useAction } from '../../lib/useAction';

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
    <Dialog
      title="New workbook"
      open={open}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" busy={busy} disabled={!name.trim()} onClick={() => void create()}>
            Create workbook
          </Button>
        </>
      }
    >
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          if (name.trim()) void create();
        }}
      >
        <ProblemBanner error={error} />
        <Field label="Name" htmlFor="wb-new-name" error={errorFor(error, 'name')} hint="Its address (slug) is made from the name.">
          <input id="wb-new-name" value={name} maxLength={255} onChange={(e) => setName(e.target.value)} autoComplete="off" />
        </Field>
        <Field label="Description" htmlFor="wb-new-description">
          <textarea id="wb-new-description" rows={2} value={description} onChange={(e) => setDescription(e.target.value)} />
        </Field>
        <label className="wb-check">
          <input type="checkbox" checked={shared} onChange={(e) => setShared(e.target.checked)} /> Shared with everyone who can read the deployment
        </label>
      </form>
    </Dialog>
  );
}

export function RenameWorkbookDialog({ open, workbook, onClose, onRenamed }: { open: boolean; workbook: Workbook; onClose: () => void; onRenamed: () => void }) {
  const [name, setName] = useState(workbook.name);
  const { busy, error, setError, run } = useAction('Renaming the workbook');
  useEffect(() => {
    if (!open) return;
    setName(workbook.name);
    setError(null);
  }, [open, workbook.name, setError]);
  const rename = async () => {
    const done = await run(() => api.call(upsertWorkbookBySlug, { params: { deploymentId: workbook.deploymentId, slug: workbook.slug }, body: { name: name.trim() } }));
    if (done) {
      onRenamed();
      onClose();
    }
  };
  const unchanged = name.trim() === workbook.name || !name.trim();
  return (
    <Dialog
      title="Rename workbook"
      open={open}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" busy={busy} disabled={unchanged} onClick={() => void rename()}>
            Rename
          </Button>
        </>
      }
    >
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          if (!unchanged) void rename();
        }}
      >
        <ProblemBanner error={error} />
        <Field label="Name" htmlFor="wb-rename-name" error={errorFor(error, 'name')} hint={`Its address stays ${workbook.slug}.`}>
          <input id="wb-rename-name" value={name} maxLength={255} onChange={(e) => setName(e.target.value)} autoComplete="off" />
        </Field>
      </form>
    </Dialog>
  );
}
