import { useEffect, useState } from 'react';
import { caseTwins, filePathProblem } from '../../../../src-shared/api/data-model';
import { toShownError, type ShownError } from '../../lib/errors';
import { Button, Dialog, Field, ProblemBanner } from '../../lib/ui';
import { FormDialog } from '../../lib/FormDialog';
import { useModels } from './store';

export type FileTemplate = 'cube' | 'view' | 'empty';

const identifierOf = (path: string) => {
  const base = path.slice(path.lastIndexOf('/') + 1).replace(/\..*$/, '');
  const name = base.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[A-Za-z_]/.test(name) ? name : `_${name}`;
};

/** Starting content of a new model file. */
export function templateFor(template: FileTemplate, path: string, firstCube?: string): string {
  const name = identifierOf(path);
  if (template === 'empty' || !/\.ya?ml$/i.test(path)) return '';
  if (template === 'view') {
    return ['views:', `  - name: ${name}`, '    cubes:', `      - join_path: ${firstCube ?? 'orders'}`, '        includes: "*"', ''].join('\n');
  }
  return [
    'cubes:',
    `  - name: ${name}`,
    `    sql_table: public.${name}`,
    '',
    '    dimensions:',
    '      - name: id',
    '        sql: id',
    '        type: number',
    '        primary_key: true',
    '',
    '    measures:',
    '      - name: count',
    '        type: count',
    '',
  ].join('\n');
}

/** Why a new name is refused, checked as the service will (its rules, and twins: one file on macOS and Windows). */
function pathError(path: string, existing: string[], leaving?: string): string | null {
  const problem = filePathProblem(path);
  if (problem) return problem.detail;
  if (existing.includes(path)) return `“${path}” already exists.`;
  const twin = caseTwins(existing.filter((p) => p !== leaving), [path])[0];
  if (twin) return `“${path}” would be the same file as “${twin.twin}” on macOS and Windows (only capital letters or accents differ).`;
  return null;
}

export function NewFileDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const files = useModels((s) => s.files);
  const createFile = useModels((s) => s.createFile);
  const firstCube = useModels((s) => Object.values(s.analysis.symbols.entities).find((e) => e.kind === 'cube')?.name);
  const [path, setPath] = useState('model/cubes/new_cube.yml');
  const [template, setTemplate] = useState<FileTemplate>('cube');
  const [error, setError] = useState<ShownError | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (open) {
      setError(null);
      setPath('model/cubes/new_cube.yml');
      setTemplate('cube');
    }
  }, [open]);

  const localError = path ? pathError(path.trim(), files.map((f) => f.path)) : null;

  const submit = async () => {
    if (localError) return;
    setBusy(true);
    setError(null);
    try {
      await createFile(path.trim(), templateFor(template, path.trim(), firstCube));
      onClose();
    } catch (failure) {
      setError(toShownError(failure, 'Creating the file'));
    } finally {
      setBusy(false);
    }
  };

  const chooseTemplate = (next: FileTemplate) => {
    setTemplate(next);
    // Follow the usual folders unless the user typed a path of their own.
    if (next === 'view' && path.startsWith('model/cubes/')) setPath(path.replace('model/cubes/', 'model/views/').replace('new_cube', 'new_view'));
    if (next === 'cube' && path.startsWith('model/views/')) setPath(path.replace('model/views/', 'model/cubes/').replace('new_view', 'new_cube'));
  };

  return (
    <FormDialog
      title="New file"
      open={open}
      onClose={onClose}
      formId="new-file-form"
      formLabel="New file"
      submitLabel="Create file"
      busy={busy}
      submitDisabled={!path.trim() || localError !== null}
      onSubmit={submit}
      validate
      error={error}
    >
      <Field label="Path" htmlFor="new-file-path" error={path ? localError : null} hint="Relative to the repository root; model files live under model/.">
        <input id="new-file-path" value={path} onChange={(e) => setPath(e.target.value)} spellCheck={false} autoFocus />
      </Field>
      <div className="field">
        <span className="field-label">Start from</span>
        <div className="checks" role="radiogroup" aria-label="Start from">
          {(
            [
              ['cube', 'A cube'],
              ['view', 'A view'],
              ['empty', 'An empty file'],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="check">
              <input type="radio" name="template" checked={template === value} onChange={() => chooseTemplate(value)} /> {label}
            </label>
          ))}
        </div>
      </div>
      <p className="muted">The file is saved on your dev branch right away, uncommitted until you commit.</p>
    </FormDialog>
  );
}

export function RenameFileDialog({ path, onClose }: { path: string | null; onClose: () => void }) {
  const files = useModels((s) => s.files);
  const renameFile = useModels((s) => s.renameFile);
  const [newPath, setNewPath] = useState('');
  const [error, setError] = useState<ShownError | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (path) {
      setNewPath(path);
      setError(null);
    }
  }, [path]);

  const localError = path && newPath.trim() !== path ? pathError(newPath.trim(), files.map((f) => f.path), path) : null;

  const submit = async () => {
    if (!path || localError || newPath.trim() === path) return;
    setBusy(true);
    setError(null);
    try {
      await renameFile(path, newPath.trim());
      onClose();
    } catch (failure) {
      setError(toShownError(failure, 'Renaming the file'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormDialog
      title="Rename file"
      open={path !== null}
      onClose={onClose}
      formId="rename-file-form"
      formLabel="Rename file"
      submitLabel="Rename"
      busy={busy}
      submitDisabled={!newPath.trim() || newPath.trim() === path || localError !== null}
      onSubmit={submit}
      validate
      error={error}
    >
      <Field label="New path" htmlFor="rename-file-path" error={localError} hint={`Renaming ${path ?? ''}; a new folder moves it.`}>
        <input id="rename-file-path" value={newPath} onChange={(e) => setNewPath(e.target.value)} spellCheck={false} autoFocus />
      </Field>
    </FormDialog>
  );
}

export function DeleteFileDialog({ path, onClose }: { path: string | null; onClose: () => void }) {
  const deleteFile = useModels((s) => s.deleteFile);
  const [error, setError] = useState<ShownError | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (path) setError(null);
  }, [path]);

  const confirm = async () => {
    if (!path) return;
    setBusy(true);
    setError(null);
    try {
      await deleteFile(path);
      onClose();
    } catch (failure) {
      setError(toShownError(failure, 'Deleting the file'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      title="Delete file"
      open={path !== null}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="danger" busy={busy} onClick={() => void confirm()}>
            Delete
          </Button>
        </>
      }
    >
      <ProblemBanner error={error} />
      <p>
        Delete <code>{path}</code> from your dev branch? The deletion is uncommitted until you commit; other branches keep the file.
      </p>
    </Dialog>
  );
}
