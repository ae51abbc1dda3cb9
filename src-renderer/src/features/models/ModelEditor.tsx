// Monaco for the Models screen (loaded lazily: it is most of the screen's weight). One Monaco model per
// file of the branch, kept while the branch is shown so each file keeps its undo history; diagnostics
// as markers; completion, go to definition, find all references (Shift+F12) and hovers from the
// worker's symbol index; Ctrl/Cmd+S saves, Ctrl/Cmd+P opens quick open, Alt+Left/Right go back/forward.
import { useEffect, useRef } from 'react';
import type { editor as MonacoEditor, IDisposable, languages } from 'monaco-editor';
import { monaco, themeFor } from '../../lib/editor/monaco';
import { completionsAt, type SuggestionKind } from './completions';
import { definitionAt, describeDefinition, markerRange } from './language';
import { goBack, goForward, goTo, openQuickOpen, registerCursor } from './navigation';
import { findReferences } from './references';
import { navigate } from '../../app/router';
import { entityHereSettled, lineagePath } from './lineage/paths';
import { currentBranch, isEditable, useModels } from './store';
import type { Diagnostic } from '../../../../src-shared/model';
import { languageOf } from './languages';
import { paneCommands } from './layout/commands';
import { useWorkbenchLayout } from './layout/layout-store';

const MARKER_OWNER = 'drydock-model';
/** Monaco's contribution that shows the references list (Shift+F12). */
const REFERENCES_CONTROLLER = 'editor.contrib.referencesController';
const LANGUAGES = ['yaml', 'javascript'];

// Monaco cancels its own pending work (hovers, definitions, suggestions) when the model changes and
// rejects those promises with a "Canceled" error nobody awaits; that is routine, not a failure.
window.addEventListener('unhandledrejection', (event) => {
  const reason: unknown = event.reason;
  if (reason instanceof Error && reason.name === 'Canceled' && reason.message === 'Canceled') event.preventDefault();
});

const darkQuery = () => window.matchMedia('(prefers-color-scheme: dark)');

/** `file:///models/<deployment>/<branch>/<path>`: unique per branch, so switching branches never mixes models. */
function uriOf(deploymentId: number, branch: string, path: string) {
  return monaco.Uri.from({ scheme: 'file', path: `/models/${deploymentId}/${encodeURIComponent(branch)}/${path}` });
}

function pathOfUri(uri: { scheme: string; path: string }): string | null {
  const m = /^\/models\/\d+\/[^/]+\/(.+)$/.exec(uri.path);
  return uri.scheme === 'file' && m ? m[1] : null;
}

function markersFor(model: MonacoEditor.ITextModel, diagnostics: Diagnostic[]): MonacoEditor.IMarkerData[] {
  const lines = model.getLineCount();
  return diagnostics.map((d) => {
    const line = Math.min(Math.max(d.line, 1), lines);
    const { startColumn, endColumn } = markerRange(model.getLineContent(line), d.column, d.message);
    return {
      severity: d.severity === 'error' ? monaco.MarkerSeverity.Error : d.severity === 'warning' ? monaco.MarkerSeverity.Warning : monaco.MarkerSeverity.Info,
      message: d.message,
      code: d.reason ?? d.code,
      source: 'drydock',
      startLineNumber: line,
      startColumn,
      endLineNumber: line,
      endColumn,
    };
  });
}

function completionKind(kind: SuggestionKind): languages.CompletionItemKind {
  const K = monaco.languages.CompletionItemKind;
  switch (kind) {
    case 'key':
      return K.Property;
    case 'value':
      return K.EnumMember;
    case 'cube':
      return K.Class;
    case 'view':
      return K.Interface;
    case 'keyword':
      return K.Keyword;
    case 'measure':
      return K.Function;
    case 'dimension':
      return K.Field;
    case 'segment':
      return K.Event;
    case 'hierarchy':
      return K.Module;
  }
}

export default function ModelEditor() {
  const host = useRef<HTMLDivElement>(null);
  const editorRef = useRef<MonacoEditor.IStandaloneCodeEditor | null>(null);
  const models = useRef(new Map<string, MonacoEditor.ITextModel>());
  const viewStates = useRef(new Map<string, MonacoEditor.ICodeEditorViewState | null>());
  /** Set while the store pushes text into a model, so the change is not echoed back as an edit. */
  const applying = useRef(false);

  const deploymentId = useModels((s) => s.deploymentId);
  const branchName = useModels((s) => s.branchName);
  const openPath = useModels((s) => s.openPath);
  const editable = useModels((s) => isEditable(currentBranch(s)));
  const hasOpenFile = useModels((s) => s.openPath !== null && s.saved[s.openPath] !== undefined);

  /** The Monaco model of a file of the shown branch, created from the store on first use. */
  const modelFor = useRef((path: string): MonacoEditor.ITextModel | null => {
    const s = useModels.getState();
    const text = s.buffers[path] ?? s.saved[path];
    if (s.deploymentId === null || s.branchName === null || text === undefined) return null;
    const existing = models.current.get(path);
    if (existing && !existing.isDisposed()) return existing;
    const model = monaco.editor.createModel(text, languageOf(path), uriOf(s.deploymentId, s.branchName, path));
    model.onDidChangeContent(() => {
      if (!applying.current) useModels.getState().setBuffer(path, model.getValue());
    });
    models.current.set(path, model);
    monaco.editor.setModelMarkers(model, MARKER_OWNER, markersFor(model, s.analysis.diagnostics.filter((d) => d.file === path)));
    return model;
  });

  // The editor, the language features and the store subscriptions: once.
  useEffect(() => {
    if (!host.current) return;
    const editor = monaco.editor.create(host.current, {
      model: null,
      theme: themeFor(darkQuery().matches),
      automaticLayout: true,
      minimap: { enabled: false },
      fontSize: 13,
      lineHeight: 19,
      lineNumbersMinChars: 3,
      scrollBeyondLastLine: false,
      tabSize: 2,
      insertSpaces: true,
      renderWhitespace: 'none',
      quickSuggestions: { other: true, comments: false, strings: true },
      suggest: { showWords: false },
      stickyScroll: { enabled: true, maxLineCount: 4 },
      ariaLabel: 'Model file editor',
    });
    editorRef.current = editor;
    const disposables: IDisposable[] = [];

    editor.addAction({
      id: 'drydock.saveFile',
      label: 'Save file',
      keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS],
      run: () => {
        const path = useModels.getState().openPath;
        if (path && isEditable(currentBranch(useModels.getState()))) void useModels.getState().save([path]);
      },
    });

    const mac = /Mac|iPhone|iPad/.test(navigator.platform);
    editor.addAction({ id: 'drydock.quickOpen', label: 'Go to file or member…', keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyP], run: openQuickOpen });
    editor.addAction({
      id: 'drydock.goBack',
      label: 'Go back',
      keybindings: [mac ? monaco.KeyMod.WinCtrl | monaco.KeyCode.Minus : monaco.KeyMod.Alt | monaco.KeyCode.LeftArrow],
      run: goBack,
    });
    editor.addAction({
      id: 'drydock.goForward',
      label: 'Go forward',
      keybindings: [mac ? monaco.KeyMod.WinCtrl | monaco.KeyMod.Shift | monaco.KeyCode.Minus : monaco.KeyMod.Alt | monaco.KeyCode.RightArrow],
      run: goForward,
    });
    editor.addAction({
      id: 'drydock.showLineage',
      label: 'Show lineage of this cube or view',
      contextMenuGroupId: 'navigation',
      contextMenuOrder: 3,
      run: async () => {
        const id = useModels.getState().deploymentId;
        if (id === null) return;
        const name = await entityHereSettled();
        if (useModels.getState().deploymentId === id) navigate(lineagePath(id, name));
      },
    });
    // The workbench's pane keys (Ctrl+B, Ctrl+J, Ctrl+Shift+M) work in the editor too, and are in its F1 palette.
    for (const command of paneCommands) {
      const binding = command.binding;
      if (!binding) continue;
      const key = monaco.KeyCode[`Key${binding.key.toUpperCase()}` as keyof typeof monaco.KeyCode];
      const mods = monaco.KeyMod.CtrlCmd | (binding.shift ? monaco.KeyMod.Shift : 0) | (binding.alt ? monaco.KeyMod.Alt : 0);
      editor.addAction({ id: command.id, label: command.title, keybindings: [mods | key], run: () => command.run() });
    }
    const showCursor = () => {
      const position = editor.getModel() ? editor.getPosition() : null;
      useWorkbenchLayout.getState().setCursor(position ? { line: position.lineNumber, column: position.column } : null);
    };
    disposables.push(editor.onDidChangeCursorPosition(showCursor), editor.onDidChangeModel(showCursor));

    const unregisterCursor = registerCursor(() => {
      const model = editor.getModel();
      const path = model ? pathOfUri(model.uri) : null;
      const position = editor.getPosition();
      return path ? { path, line: position?.lineNumber ?? 1, column: position?.column ?? 1 } : null;
    });

    const symbols = () => useModels.getState().analysis.symbols;
    /** Text of every file of the branch as the user sees it (unsaved edits included). */
    const branchTexts = () => {
      const s = useModels.getState();
      return Object.keys(s.saved).map((path) => ({ path, text: models.current.get(path)?.getValue() ?? s.buffers[path] ?? s.saved[path]! }));
    };
    for (const language of LANGUAGES) {
      disposables.push(
        monaco.languages.registerCompletionItemProvider(language, {
          triggerCharacters: ['{', '.', ' '],
          provideCompletionItems(model, position, context) {
            const path = pathOfUri(model.uri);
            if (!path) return { suggestions: [] };
            const result = completionsAt(model.getValue(), position.lineNumber, position.column, path, symbols());
            if (!result) return { suggestions: [] };
            // A space only opens the list after `key: ` or `- ` (not while indenting).
            if (context.triggerCharacter === ' ' && !/(:|^\s*-)\s$/.test(model.getLineContent(position.lineNumber).slice(0, position.column - 1))) {
              return { suggestions: [] };
            }
            const range = new monaco.Range(position.lineNumber, result.startColumn, position.lineNumber, position.column);
            return {
              suggestions: result.suggestions.map((s) => ({
                label: s.label,
                kind: completionKind(s.kind),
                insertText: s.insertText,
                insertTextRules: s.snippet ? monaco.languages.CompletionItemInsertTextRule.InsertAsSnippet : undefined,
                detail: s.detail,
                documentation: s.documentation ? { value: s.documentation } : undefined,
                tags: s.deprecated ? [monaco.languages.CompletionItemTag.Deprecated] : undefined,
                sortText: s.sortText,
                range,
              })),
            };
          },
        }),
        monaco.languages.registerDefinitionProvider(language, {
          provideDefinition(model, position) {
            const path = pathOfUri(model.uri);
            if (!path) return null;
            const target = definitionAt(model.getValue(), position.lineNumber, position.column, path, symbols());
            if (!target) return null;
            const targetModel = target.file === path ? model : modelFor.current(target.file);
            if (!targetModel) return null;
            return { uri: targetModel.uri, range: new monaco.Range(target.line, target.column, target.line, target.column) };
          },
        }),
        monaco.languages.registerReferenceProvider(language, {
          provideReferences(model, position, context) {
            const path = pathOfUri(model.uri);
            if (!path) return [];
            const target = definitionAt(model.getValue(), position.lineNumber, position.column, path, symbols());
            if (!target) return [];
            const found = findReferences(branchTexts(), symbols(), target).filter((r) => context.includeDeclaration || !r.isDefinition);
            return found.flatMap((r) => {
              // The peek list previews each place: its file needs a model.
              const refModel = r.file === path ? model : modelFor.current(r.file);
              return refModel ? [{ uri: refModel.uri, range: new monaco.Range(r.line, r.startColumn, r.line, r.endColumn) }] : [];
            });
          },
        }),
        monaco.languages.registerHoverProvider(language, {
          provideHover(model, position) {
            const path = pathOfUri(model.uri);
            if (!path) return null;
            const target = definitionAt(model.getValue(), position.lineNumber, position.column, path, symbols());
            if (!target) return null;
            return {
              range: new monaco.Range(position.lineNumber, target.range.startColumn, position.lineNumber, target.range.endColumn),
              contents: [{ value: describeDefinition(target) }],
            };
          },
        }),
      );
    }

    // Go to definition or a reference in another file: open it in this editor, at the place (and remember where the user was).
    disposables.push(
      monaco.editor.registerEditorOpener({
        openCodeEditor(_source, resource, selectionOrPosition) {
          const path = pathOfUri(resource);
          if (!path || useModels.getState().saved[path] === undefined) return false;
          const at = selectionOrPosition && 'lineNumber' in selectionOrPosition
            ? { line: selectionOrPosition.lineNumber, column: selectionOrPosition.column }
            : selectionOrPosition
              ? { line: selectionOrPosition.startLineNumber, column: selectionOrPosition.startColumn }
              : { line: 1, column: 1 };
          goTo(path, at);
          // From the references list (Enter or a double click on a place): Monaco shows the list again
          // at the place when it opens in the same editor — here every file does — so Enter would only
          // preview. The user asked to go there: close the list once Monaco is done.
          if (editor.getDomNode()?.querySelector('.peekview-widget')) {
            setTimeout(() => editor.getContribution<{ closeWidget(focusEditor?: boolean): void } & MonacoEditor.IEditorContribution>(REFERENCES_CONTROLLER)?.closeWidget(), 0);
          }
          return true;
        },
      }),
    );

    // Markers follow the worker's diagnostics.
    const unsubscribeDiagnostics = useModels.subscribe((s, previous) => {
      if (s.analysis.diagnostics === previous.analysis.diagnostics) return;
      const byFile = new Map<string, Diagnostic[]>();
      for (const d of s.analysis.diagnostics) byFile.set(d.file, [...(byFile.get(d.file) ?? []), d]);
      for (const [path, model] of models.current) {
        if (!model.isDisposed()) monaco.editor.setModelMarkers(model, MARKER_OWNER, markersFor(model, byFile.get(path) ?? []));
      }
    });

    // Text changed by the store (a reload after a pull, a discard): push it into the models.
    const unsubscribeText = useModels.subscribe((s, previous) => {
      if (s.saved === previous.saved && s.buffers === previous.buffers) return;
      for (const [path, model] of models.current) {
        if (model.isDisposed()) continue;
        const text = s.buffers[path] ?? s.saved[path];
        if (text === undefined) {
          if (editor.getModel() === model) editor.setModel(null);
          model.dispose();
          models.current.delete(path);
        } else if (model.getValue() !== text) {
          applying.current = true;
          try {
            model.pushEditOperations([], [{ range: model.getFullModelRange(), text }], () => null);
          } finally {
            applying.current = false;
          }
        }
      }
    });

    // Enter on a place in the references list (Shift+F12) opens it. The list's own Enter only shows
    // the place in its preview, and takes the key before Monaco's keybindings see it: so this listens
    // first (capture) and runs Monaco's "open reference" command. File rows keep Enter = fold/unfold.
    const hostElement = host.current;
    const onReferenceEnter = (event: KeyboardEvent) => {
      if (event.key !== 'Enter' || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      const list = event.target instanceof Element ? event.target.closest('.ref-tree') : null;
      const row = list?.querySelector('.monaco-list-row.focused');
      if (!row || row.hasAttribute('aria-expanded')) return;
      event.preventDefault();
      event.stopPropagation();
      editor.trigger('keyboard', 'openReference', null);
    };
    hostElement.addEventListener('keydown', onReferenceEnter, true);

    const query = darkQuery();
    const onScheme = (event: MediaQueryListEvent) => monaco.editor.setTheme(themeFor(event.matches));
    query.addEventListener('change', onScheme);
    const modelMap = models.current;
    return () => {
      hostElement.removeEventListener('keydown', onReferenceEnter, true);
      query.removeEventListener('change', onScheme);
      unsubscribeDiagnostics();
      unsubscribeText();
      unregisterCursor();
      useWorkbenchLayout.getState().setCursor(null);
      for (const d of disposables) d.dispose();
      editor.dispose();
      for (const model of modelMap.values()) model.dispose();
      modelMap.clear();
      editorRef.current = null;
    };
  }, []);

  // Another branch or deployment: its files are other models.
  useEffect(() => {
    const modelMap = models.current;
    const states = viewStates.current;
    return () => {
      editorRef.current?.setModel(null);
      for (const model of modelMap.values()) model.dispose();
      modelMap.clear();
      states.clear();
    };
  }, [deploymentId, branchName]);

  // The open file.
  useEffect(() => {
    const editor = editorRef.current;
    if (!editor) return;
    const previous = editor.getModel();
    const previousPath = previous ? pathOfUri(previous.uri) : null;
    if (previousPath) viewStates.current.set(previousPath, editor.saveViewState());
    const model = openPath && hasOpenFile ? modelFor.current(openPath) : null;
    if (model === previous) return;
    editor.setModel(model);
    if (model && openPath) {
      const state = viewStates.current.get(openPath);
      if (state) editor.restoreViewState(state);
    }
  }, [openPath, hasOpenFile, branchName, deploymentId]);

  useEffect(() => {
    editorRef.current?.updateOptions({
      readOnly: !editable,
      readOnlyMessage: { value: 'Read-only. Enter dev mode to edit files on your dev branch.' },
    });
  }, [editable]);

  // Requests to show a place (Problems panel, go to definition in another file), once the file is open.
  const reveal = useModels((s) => s.reveal);
  const revealed = useRef(0);
  useEffect(() => {
    const editor = editorRef.current;
    const model = editor?.getModel();
    if (!editor || !model || !reveal || reveal.seq === revealed.current || pathOfUri(model.uri) !== reveal.path) return;
    revealed.current = reveal.seq;
    const line = Math.min(Math.max(reveal.line, 1), model.getLineCount());
    const position = { lineNumber: line, column: Math.max(reveal.column, 1) };
    editor.setPosition(position);
    editor.revealPositionInCenterIfOutsideViewport(position);
    editor.focus();
  }, [reveal, openPath, hasOpenFile]);

  return <div className="models-monaco" ref={host} data-testid="model-editor" />;
}
