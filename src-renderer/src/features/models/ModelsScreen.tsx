import { Placeholder } from '../placeholder';

export default function ModelsScreen() {
  return (
    <Placeholder
      title="Models"
      summary="Author a deployment's data model offline: cubes and views in YAML or JavaScript, kept in the deployment's git repository."
      items={[
        'File tree of the model with a YAML/JS editor, diagnostics at file, line and column',
        'Dev-mode branches: create, switch, commit, pull, merge to the default branch',
        'Validation and what each view can push to warehouse semantic views or publish as lakehouse metric views',
        'Upload of a project folder and generation from a transform manifest',
      ]}
    />
  );
}
