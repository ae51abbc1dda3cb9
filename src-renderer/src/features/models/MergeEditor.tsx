// The shared merge view (lib/editor/MergeEditor) in a model file's language.
import SharedMergeEditor, { type MergeEditorProps } from '../../lib/editor/MergeEditor';
import { languageOf } from './languages';

export default function MergeEditor(props: Omit<MergeEditorProps, 'language'>) {
  return <SharedMergeEditor {...props} language={languageOf(props.path)} />;
}
