// The page: opens an export, keeps it in IndexedDB, and wires the four views to it and to the
// policy component. Every failure ends in the error banner, never in a blank page.
import { $ } from './views/dom.js';
import { parseExport, ExportFileError, MAX_FILE_BYTES } from './format/export-file.js';
import { KnowledgeBase } from './retrieval/candidates.js';
import { loadPolicy } from './policy/component.js';
import { saveOpened, loadOpened, clearOpened } from './persist.js';
import { ListView } from './views/list-view.js';
import { GraphView } from './views/graph-view.js';
import { TurnView } from './views/turn-view.js';
import { ScanView } from './views/scan-view.js';

const state = { kb: null, policy: null, subjectKind: 'binary', name: null };
const graph = new GraphView();
const list = new ListView((memories, filter) => graph.follow(memories, filter));
new TurnView(() => state);
const scan = new ScanView(() => state.policy);

function showError(message) {
  const banner = $('#error');
  banner.textContent = message;
  banner.hidden = false;
}
const clearError = () => {
  $('#error').hidden = true;
};
window.addEventListener('error', (event) => showError(`Unexpected error: ${event.message}`));
window.addEventListener('unhandledrejection', (event) => showError(`Unexpected error: ${event.reason?.message ?? event.reason}`));

function selectView(name) {
  for (const tab of document.querySelectorAll('#tabs button')) {
    tab.setAttribute('aria-selected', String(tab.dataset.view === name));
  }
  for (const view of document.querySelectorAll('.view')) view.hidden = view.id !== `view-${name}`;
  if (name === 'graph') graph.show();
  else graph.hide();
}
for (const tab of document.querySelectorAll('#tabs button')) tab.addEventListener('click', () => selectView(tab.dataset.view));

/**
 * Opens an export's text (`bytes` long as a file): parsed, indexed and listed; returns the
 * timings in milliseconds.
 */
function openText(name, text, bytes) {
  const started = performance.now();
  const file = parseExport(text, bytes);
  const parsed = performance.now();
  const kb = new KnowledgeBase(file.memories);
  const indexed = performance.now();
  state.kb = kb;
  state.name = name;
  state.subjectKind = ['binary', 'account', 'profile'].includes(file.subject.kind) ? file.subject.kind : 'binary';
  graph.open(kb);
  const listMs = list.open(kb);
  selectView(document.querySelector('#tabs [aria-selected="true"]').dataset.view);
  const timings = { parseMs: parsed - started, indexMs: indexed - parsed, listMs, firstRenderMs: performance.now() - started };
  const status = $('#kb-status');
  status.textContent = `${file.subject.kind} ${file.subject.label ?? file.subject.key} · ${kb.memories.size} memories · from ${name} · ` +
    `read, indexed and listed in ${timings.firstRenderMs.toFixed(0)} ms`;
  status.dataset.timings = JSON.stringify(timings);
  $('#close-kb').disabled = false;
  return timings;
}

async function openFile(file) {
  clearError();
  if (file.size > MAX_FILE_BYTES) {
    showError(`${file.name}: the file is ${file.size} bytes; the page opens at most ${MAX_FILE_BYTES}.`);
    return;
  }
  let text;
  try {
    text = await file.text();
    openText(file.name, text, file.size);
  } catch (error) {
    showError(error instanceof ExportFileError ? `${file.name}: ${error.message}` : `${file.name}: could not be opened (${error.message})`);
    return;
  }
  try {
    await saveOpened(file.name, text, file.size);
  } catch (error) {
    showError(`${file.name} is open, but the browser would not keep it for the next visit (${error.message}).`);
  }
}

$('#open-file').addEventListener('change', (event) => {
  const [file] = event.target.files;
  if (file) openFile(file);
  event.target.value = '';
});

$('#close-kb').addEventListener('click', async () => {
  await clearOpened();
  state.kb = null;
  graph.open(null);
  list.open(null);
  $('#kb-status').textContent = 'No knowledge base open.';
  $('#close-kb').disabled = true;
});

async function start() {
  const saved = await loadOpened().catch(() => undefined);
  if (saved) {
    try {
      openText(saved.name, saved.text, saved.bytes);
    } catch (error) {
      showError(`The saved knowledge base could not be reopened: ${error.message}`);
    }
  }
  try {
    state.policy = await loadPolicy(new URL('../policy/kenning_policy.js', import.meta.url).href);
    const info = await state.policy.withInstance((p) => p.describe());
    $('#policy-status').textContent = `Policy ${info.name} ${info.version} (contract ${info.contractVersion}), in this page`;
    $('#policy-status').dataset.ready = 'true';
    scan.scan();
  } catch (error) {
    showError(`The policy component could not be loaded: ${error.message}`);
  }
}
start();
