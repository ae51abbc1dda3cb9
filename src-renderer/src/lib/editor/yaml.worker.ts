// monaco-yaml's worker, re-exported from the app so Vite bundles it as a worker (see monaco-yaml's FAQ on Vite).
import 'monaco-yaml/yaml.worker.js';
